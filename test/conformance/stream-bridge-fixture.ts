import { randomUUID } from "node:crypto";
import { afterEach, beforeEach } from "vitest";
import type { StreamBridge } from "../../src/ports/stream-bridge.js";

export interface StreamBridgeOptions {
  /** Events retained per run; small values let tests force eviction. */
  queueMaxSize?: number;
}

export interface StreamBridgeFixture {
  bridge: StreamBridge;
  /** Defaults to `bridge.close()`. */
  cleanup?: () => Promise<void>;
}

export interface BridgesPerTest {
  /** A bridge for this test, closed after it. */
  open(options?: StreamBridgeOptions): Promise<StreamBridge>;
  /** This test's fresh random run id (so a shared Redis works). */
  readonly runId: string;
}

/** Registers the hooks of a suite whose tests each open bridges and use one fresh run id. */
export function bridgesPerTest(
  makeBridge: (options: StreamBridgeOptions) => Promise<StreamBridgeFixture>,
): BridgesPerTest {
  const fixtures: StreamBridgeFixture[] = [];
  let runId = "";
  beforeEach(() => {
    runId = `run-${randomUUID()}`;
  });
  afterEach(async () => {
    for (const fixture of fixtures.splice(0)) {
      await (fixture.cleanup ? fixture.cleanup() : fixture.bridge.close());
    }
  });
  return {
    async open(options: StreamBridgeOptions = {}): Promise<StreamBridge> {
      const fixture = await makeBridge(options);
      fixtures.push(fixture);
      return fixture.bridge;
    },
    get runId(): string {
      return runId;
    },
  };
}
