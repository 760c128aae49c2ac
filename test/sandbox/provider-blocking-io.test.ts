/**
 * The whole provider lifecycle on the real default backend of this host (bubblewrap, or local)
 * and the real file ownership store, under the blocking-IO gate: construction and probe, acquire,
 * get, commands, files, search, release, re-acquire, renewal, reaping and shutdown.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { FawnPaths } from "../../src/core/paths.js";
import { forgetBwrapProbes } from "../../src/sandbox/bwrap/bwrap-probe.js";
import { createSandboxProvider } from "../../src/sandbox/create-sandbox-provider.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-provider-gate-"));
  forgetBwrapProbes();
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

it("runs a sandbox's whole life without synchronous IO on the event loop", async () => {
  await withBlockingIoGate(async () => {
    const provider = await createSandboxProvider({
      config: sandboxConfigSchema.parse({
        use: "auto",
        allow_host_bash: true,
        idle_timeout: 0.001,
        ownership: { type: "file" },
      }),
      paths: new FawnPaths(home),
    });
    const id = await provider.acquire("t-gate", "alice");
    const sandbox = provider.get(id);
    await sandbox?.writeFile("/mnt/user-data/workspace/a.txt", "needle\n");
    const result = await sandbox?.execute("cat a.txt", { timeoutMs: 10_000, maxOutputBytes: 1000 });
    expect(result?.stdout).toBe("needle\n");
    expect((await sandbox?.grep("/mnt/user-data/workspace", "needle"))?.matches).toHaveLength(1);
    expect((await sandbox?.glob("/mnt/user-data/workspace", "*.txt"))?.paths).toHaveLength(1);
    await provider.release(id);
    expect(await provider.acquire("t-gate", "alice")).toBe(id);
    await provider.renewLeases();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await provider.reapIdle();
    expect(provider.get(id)).toBeNull();
    await provider.shutdown();
  });
});
