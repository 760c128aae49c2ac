/**
 * Recovery latency: SIGKILL a worker process mid-run and time until a peer (a createFawn runtime
 * with the configured lease and grace; recovery scan every 1 s) has published the recovered
 * `run.terminal`. Full mode uses the defaults (lease 30 s, grace 10 s); quick mode lease 5 s,
 * grace 0 s. Repetitions run side by side, each on its own database with its own worker and peer:
 * the measurement is waiting on a lease, not CPU.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createFawn } from "../../src/app/create-fawn.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { openSqlStores } from "../../src/stores/sql/stores.js";
import type { BenchContext, BenchScript, ScriptReport } from "../lib/bench-script.js";
import { bundleEntry } from "../lib/bundle.js";
import { fixed } from "../lib/format.js";
import { repoRoot } from "../lib/paths.js";
import { median } from "../lib/stats.js";

const SCAN_SECONDS = 1;

/** One kill → recovered terminal, in seconds. */
async function recoverOnce(bundle: string, leaseSeconds: number, graceSeconds: number) {
  const dir = await mkdtemp(join(tmpdir(), "fawn-bench-recovery-"));
  const url = `sqlite:${join(dir, "bench.db")}`;
  const stores = await openSqlStores(url);
  try {
    const config = parseConfig(
      {
        runtime: {
          lease_seconds: leaseSeconds,
          grace_seconds: graceSeconds,
          heartbeat_enabled: true,
          recovery_interval_seconds: SCAN_SECONDS,
        },
      },
      { env: {}, cwd: dir },
    ).config;
    const child = spawn(process.execPath, [bundle, url, "0", "host"], {
      cwd: repoRoot,
      env: { ...process.env, FAWN_CRASH_LEASE_SECONDS: String(leaseSeconds) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let runId = "";
    let threadId = "";
    await new Promise<void>((done) => {
      createInterface({ input: child.stdout }).on("line", (line) => {
        const [kind, a, b] = line.split(" ");
        if (kind === "run" && a && b) [runId, threadId] = [a, b];
        if (kind === "crash-point") done();
      });
    });
    child.kill("SIGKILL");
    const killedAt = performance.now();
    // The peer starts after the kill, like a surviving process would already be running.
    const fawn = await createFawn({
      config,
      stores,
      logger: createLogger({ level: "silent" }),
      agentFactory: () => ({ stream: async function* () {} }),
    });
    try {
      for (;;) {
        const terminal = await stores.events.listEvents(threadId, runId, {
          eventTypes: ["run.terminal"],
        });
        if (terminal.length > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      return (performance.now() - killedAt) / 1000;
    } finally {
      await fawn.close(); // also closes the stores
    }
  } finally {
    await stores.close(); // a no-op after fawn.close(); needed when the run failed before it
    await rm(dir, { recursive: true, force: true });
  }
}

async function run(ctx: BenchContext): Promise<ScriptReport> {
  const leaseSeconds = ctx.quick ? 5 : 30;
  const graceSeconds = ctx.quick ? 0 : 10;
  const bound = leaseSeconds + graceSeconds + SCAN_SECONDS;
  // The crash worker of test/crash, run as plain node (it is SIGKILLed, so no tsx wrapper).
  const bundle = await bundleEntry("test/crash/crash-worker.ts");
  const seconds = await Promise.all(
    Array.from({ length: ctx.reps }, () => recoverOnce(bundle, leaseSeconds, graceSeconds)),
  );
  const value = median(seconds);
  ctx.log(`recovery: ${value.toFixed(2)} s (bound ${bound} s)`);
  return {
    tables: [
      {
        title: "SIGKILL → recovered terminal",
        columns: [
          "lease (s)",
          "grace (s)",
          "scan (s)",
          "bound (s)",
          "median (s)",
          "min (s)",
          "max (s)",
        ],
        rows: [
          [
            String(leaseSeconds),
            String(graceSeconds),
            String(SCAN_SECONDS),
            String(bound),
            fixed(value, 2),
            fixed(Math.min(...seconds), 2),
            fixed(Math.max(...seconds), 2),
          ],
        ],
      },
    ],
    targets: [
      {
        target: "recovery: SIGKILL → recovered terminal ≤ lease + grace + 1 s",
        measured: `${fixed(value, 2)} s (bound ${bound} s)`,
        met: value <= bound,
      },
    ],
    notes: [
      "A worker process (test/crash/crash-worker.ts) runs one scripted run on SQLite and stops dead mid-stream; it is SIGKILLed there. A peer createFawn runtime then starts on the same database; the figure is kill → the recovered run's `run.terminal` event is readable.",
      `The bound is lease + grace + one recovery scan interval. ${ctx.reps} repetition(s) ran side by side, each with its own database, worker and peer.`,
    ],
  };
}

export const recoveryBench: BenchScript = {
  name: "recovery",
  title: "Recovery: SIGKILL → recovered terminal",
  run,
};
