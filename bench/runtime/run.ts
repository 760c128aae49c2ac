/**
 * Runtime: runs/s and latency of a trivial one-turn scripted run through Fawn's HTTP API on
 * durable SQLite stores, next to `@langchain/langgraph-api` (in-memory) serving the same graph,
 * and the bare in-process `graph.stream()` as the ceiling. Same client loop for all three.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchContext, BenchScript, ScriptReport } from "../lib/bench-script.js";
import { bundleEntry } from "../lib/bundle.js";
import { type ChildServer, startChildServer } from "../lib/child-server.js";
import { medianOf } from "../lib/stats.js";
import { processCpuMs } from "../lib/thread-cpu.js";
import { bareGraphRunner } from "./bare-graph.js";
import { closedLoop, type LoadBounds, type LoadFigures, type RunSample } from "./closed-loop.js";
import {
  runtimeTables,
  runtimeTargets,
  type SubjectFigures,
  type SubjectName,
} from "./runtime-report.js";
import { benchClient, streamOneRun } from "./sdk-runs.js";

interface Subject {
  name: SubjectName;
  runOnce: () => Promise<RunSample>;
  /** CPU ms the subject's process has used so far (all its threads); the figure is a difference. */
  cpuMs: () => Promise<number | null>;
  /** Between repetitions (the peer keeps every run in memory and rewrites its state file). */
  reset?: () => Promise<void>;
  close(): Promise<void>;
}

const FIGURE_KEYS = [
  "runs",
  "errors",
  "runsPerSecond",
  "p50Ms",
  "p95Ms",
  "firstEventP50Ms",
  "firstEventP95Ms",
  "cpuMsPerRun",
] as const;

function levelsOf(ctx: BenchContext): number[] {
  return ctx.quick ? [1, 4] : [1, 10, 50];
}

function boundsOf(ctx: BenchContext, concurrency: number): LoadBounds {
  return ctx.quick
    ? { concurrency, minRuns: concurrency * 2, minDurationMs: 0, maxDurationMs: 5_000 }
    : {
        concurrency,
        minRuns: Math.max(15, concurrency * 4),
        minDurationMs: 2_000,
        maxDurationMs: 15_000,
      };
}

async function startFawn(dir: string): Promise<Subject> {
  const server = await startChildServer("bench/servers/fawn-server.ts", {
    args: [`sqlite:${join(dir, "fawn.db")}`, dir],
  });
  const client = benchClient(`${server.url}/api`);
  return {
    name: "fawn",
    runOnce: () => streamOneRun(client),
    cpuMs: () => processCpuMs(server.pid),
    close: () => server.stop(),
  };
}

async function startPeer(dir: string, nWorkers: number): Promise<Subject> {
  const server: ChildServer = await startChildServer("bench/servers/peer-server.ts", {
    args: [String(nWorkers), dir, await bundleEntry("bench/runtime/peer-graph.ts")],
  });
  const client = benchClient(server.url);
  return {
    name: "peer",
    runOnce: () => streamOneRun(client),
    cpuMs: () => processCpuMs(server.pid),
    reset: async () => {
      const response = await fetch(`${server.url}/internal/truncate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ runs: true, threads: true, checkpointer: true }),
      });
      if (!response.ok) throw new Error(`peer truncate answered ${response.status}`);
    },
    close: () => server.stop(),
  };
}

function startBare(): Subject {
  return {
    name: "bare",
    runOnce: bareGraphRunner(),
    // In-process: the bench process's CPU, graph and closed loop together.
    cpuMs: async () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
    close: async () => undefined,
  };
}

async function measureSubject(ctx: BenchContext, subject: Subject): Promise<SubjectFigures> {
  const figures: SubjectFigures = new Map();
  // Warm-up (JIT, caches, connection pools); not reported.
  await closedLoop(
    {
      concurrency: ctx.quick ? 2 : 10,
      minRuns: ctx.quick ? 2 : 50,
      minDurationMs: 0,
      maxDurationMs: 20_000,
    },
    subject.runOnce,
  );
  for (const concurrency of levelsOf(ctx)) {
    const reps: Array<LoadFigures & { cpuMsPerRun: number }> = [];
    for (let rep = 0; rep < ctx.reps; rep++) {
      await subject.reset?.();
      const before = await subject.cpuMs();
      const figures = await closedLoop(boundsOf(ctx, concurrency), subject.runOnce);
      const after = await subject.cpuMs();
      const cpuMsPerRun =
        before === null || after === null ? Number.NaN : (after - before) / figures.runs;
      reps.push({ ...figures, cpuMsPerRun });
    }
    const median = medianOf(reps, FIGURE_KEYS);
    figures.set(concurrency, median);
    ctx.log(
      `runtime: ${subject.name} c=${concurrency}: ${median.runsPerSecond.toFixed(1)} runs/s, ` +
        `p50 ${median.p50Ms.toFixed(1)} ms, first event p50 ${median.firstEventP50Ms.toFixed(1)} ms`,
    );
  }
  return figures;
}

async function run(ctx: BenchContext): Promise<ScriptReport> {
  const levels = levelsOf(ctx);
  const peerWorkers = Math.max(...levels);
  const dir = await mkdtemp(join(tmpdir(), "fawn-bench-runtime-"));
  const all = new Map<SubjectName, SubjectFigures>();
  try {
    const starters: Array<() => Promise<Subject>> = [
      () => startFawn(dir),
      () => startPeer(dir, peerWorkers),
      async () => startBare(),
    ];
    for (const start of starters) {
      const subject = await start();
      try {
        all.set(subject.name, await measureSubject(ctx, subject));
      } finally {
        await subject.close();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return {
    tables: runtimeTables(all, levels),
    targets: runtimeTargets(all, levels),
    notes: [
      "Graph: the lead agent (model ↔ tools loop, no middlewares, no tools) over the scripted model answering one five-word turn; stream modes `values` + `messages-tuple`.",
      "Fawn: `fawn serve`'s gateway in its own process, SQLite stores and checkpoints (WAL, synchronous=NORMAL), in-memory stream bridge.",
      `Peer: \`@langchain/langgraph-api\` \`startServer\` in its own process, in-memory, nWorkers ${peerWorkers} at every level (more idle queue pollers shorten its pick-up delay: its best case); its state is truncated between repetitions.`,
      "Bare: the same graph's `stream()` in the bench process with LangGraph's MemorySaver — no HTTP, no run records, no journal.",
      "CPU ms/run: user + system CPU of the subject's process (all its threads, from /proc) over each repetition ÷ its runs, median. The SDK client's CPU (the bench process) is not in Fawn's or the peer's figure; the bare graph's is the bench process, graph and client loop together.",
      "Where runs/s stops growing with concurrency the server is saturated, and latency at higher concurrency is mostly queueing (≈ concurrency ÷ runs/s).",
      "Client: the real `@langchain/langgraph-sdk` Client (no concurrency cap, no retries); each run is one `runs.stream` on a new thread id with `if_not_exists: create`; closed loop, each client starts its next run when the previous one ended.",
      `Each figure is the median over ${ctx.reps} repetition(s); a repetition runs at least ${boundsOf(ctx, 1).minDurationMs / 1000} s and ${boundsOf(ctx, 1).minRuns} runs (4 per client at higher concurrency), after a warm-up.`,
    ],
  };
}

export const runtimeBench: BenchScript = {
  name: "runtime",
  title: "Runtime: runs/s and latency through the HTTP API",
  run,
};
