/**
 * The TTL sweeper createFawn starts: every `store.ttl_sweep_interval_seconds` it deletes expired
 * items. Timers are faked and the store's clock is manual, so nothing waits.
 */
import { afterEach, expect, it, vi } from "vitest";
import { wireGraphStore } from "../../src/app/graph-store-wiring.js";
import { ManualClock } from "../../src/core/clock.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { ScopedGraphStore } from "../../src/ports/graph-store.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";

afterEach(() => {
  vi.useRealTimers();
});

it("sweeps expired items on its interval and stops on close", async () => {
  vi.useFakeTimers();
  const clock = new ManualClock();
  const { config } = parseConfig(
    { database: { url: "memory:" }, store: { ttl_sweep_interval_seconds: 5 } },
    { env: { FAWN_HOME: "/tmp/fawn-sweeper-test" }, cwd: "/tmp" },
  );
  const wiring = wireGraphStore(
    config,
    createMemoryStores(),
    createLogger({ level: "silent" }),
    clock,
  );
  const sweep = vi.spyOn(wiring.store, "sweepExpired");
  const store = new ScopedGraphStore(wiring.store, "");
  await store.putItem(["t"], "k", { v: 1 }, { ttl: 1 });
  clock.advance(2 * 60_000);
  await vi.advanceTimersByTimeAsync(4_999);
  expect(sweep).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  expect(sweep).toHaveBeenCalledTimes(1);
  expect(await sweep.mock.results[0]?.value).toBe(1);
  await wiring.close();
  await vi.advanceTimersByTimeAsync(60_000);
  expect(sweep).toHaveBeenCalledTimes(1);
});
