/**
 * `npm run bench -- scale-out`: runs/s through one and then two `fawn serve` processes sharing a
 * fresh PostgreSQL database and a private Redis, behind a round-robin client (the real
 * `@langchain/langgraph-sdk`, `runs.wait` per run, a closed loop of concurrent callers). The
 * scripted model answers at once, so the figure is the harness's own cost per run.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { startPrivateRedis } from "../../test/helpers/redis.js";
import { ChaosCluster } from "../chaos/cluster.js";
import type { BenchContext, BenchScript, ScriptReport } from "../lib/bench-script.js";
import { bundleEntry } from "../lib/bundle.js";
import { fixed, ms } from "../lib/format.js";
import { freshPostgresDatabase } from "../lib/postgres.js";
import { median, percentile } from "../lib/stats.js";

interface Measurement {
  processes: number;
  runsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  failed: number;
}

/** Closed loop: `concurrency` callers, each creating a thread and waiting for a run, in turn. */
async function measure(
  processes: number,
  settings: { seconds: number; concurrency: number },
): Promise<Measurement> {
  const redis = await startPrivateRedis();
  if (!redis) throw new Error("scale-out needs redis-server on PATH");
  const database = await freshPostgresDatabase();
  const dir = await mkdtemp(join(tmpdir(), "fawn-scale-out-"));
  const cluster = new ChaosCluster({
    dir,
    databaseUrl: database.url,
    redisUrl: redis.url,
    words: 5,
    delayMs: 0,
    leaseSeconds: 30,
    cli: await bundleEntry("src/cli/main.ts"),
  });
  try {
    await cluster.start(processes);
    const clients = cluster
      .serving()
      .map((server) => new Client({ apiUrl: server.apiUrl, apiKey: null }));
    let next = 0;
    const oneRun = async (): Promise<number> => {
      const client = clients[next++ % clients.length];
      if (!client) throw new Error("no server");
      const started = performance.now();
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, "lead_agent", {
        input: { messages: [{ role: "user", content: "hello" }] },
      });
      return performance.now() - started;
    };
    // Warm-up: the first runs build each process's graph and fill its pools.
    await Promise.all(clients.map(() => oneRun()));
    const latencies: number[] = [];
    let failed = 0;
    const began = performance.now();
    const until = began + settings.seconds * 1000;
    await Promise.all(
      Array.from({ length: settings.concurrency }, async () => {
        while (performance.now() < until) {
          try {
            latencies.push(await oneRun());
          } catch {
            failed += 1;
          }
        }
      }),
    );
    const elapsed = (performance.now() - began) / 1000;
    return {
      processes,
      runsPerSecond: latencies.length / elapsed,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      failed,
    };
  } finally {
    await cluster.stop();
    await redis.stop();
    await database.drop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

async function run(ctx: BenchContext): Promise<ScriptReport> {
  const settings = { seconds: ctx.quick ? 3 : 20, concurrency: ctx.quick ? 4 : 16 };
  const rows: Measurement[] = [];
  for (const processes of [1, 2]) {
    const reps: Measurement[] = [];
    for (let rep = 0; rep < ctx.reps; rep += 1) reps.push(await measure(processes, settings));
    const pick = (key: keyof Measurement) => median(reps.map((m) => m[key]));
    const row: Measurement = {
      processes,
      runsPerSecond: pick("runsPerSecond"),
      p50Ms: pick("p50Ms"),
      p95Ms: pick("p95Ms"),
      failed: Math.max(...reps.map((m) => m.failed)),
    };
    ctx.log(`scale-out: ${processes} process(es): ${row.runsPerSecond.toFixed(1)} runs/s`);
    rows.push(row);
  }
  const single = rows[0]?.runsPerSecond ?? Number.NaN;
  return {
    tables: [
      {
        title: "Runs/s through 1 and 2 processes (PostgreSQL + Redis, round-robin client)",
        columns: ["processes", "runs/s", "× one process", "p50 (ms)", "p95 (ms)", "failed"],
        rows: rows.map((r) => [
          String(r.processes),
          fixed(r.runsPerSecond, 1),
          fixed(r.runsPerSecond / single, 2),
          ms(r.p50Ms),
          ms(r.p95Ms),
          String(r.failed),
        ]),
      },
    ],
    targets: [],
    notes: [
      `Each measurement: fresh PostgreSQL database, private redis-server, bundled \`fawn serve\` processes on loopback; ${settings.concurrency} concurrent SDK callers in a closed loop for ${settings.seconds} s after one warm-up run per process, each call \`threads.create\` + \`runs.wait\` on the next process in turn; scripted 5-word answer, no delay.`,
      "Client, servers, PostgreSQL and Redis share the measured machine's cores: a second process adds an event loop, not CPU, so on 2 cores the ratio shows what the shared stores and the bridge cost more than what a second host would add.",
    ],
  };
}

export const scaleOutBench: BenchScript = {
  name: "scale-out",
  title: "Scale-out: runs/s with one and two processes",
  run,
};
