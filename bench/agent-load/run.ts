/**
 * Agent load: N concurrent runs of a realistic agent — the real `@langchain/openai` client
 * against a paced mock model in its own process, two tool turns, then a streamed answer — each
 * watched by an SSE client. Fawn (HTTP, SQLite) next to `@langchain/langgraph-api` serving the
 * same graph, and the bare graph in-process as the ceiling.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { BenchContext, BenchScript, ScriptReport } from "../lib/bench-script.js";
import { bundleEntry } from "../lib/bundle.js";
import { type ChildServer, startChildServer } from "../lib/child-server.js";
import { type LoopDelay, LoopDelayProbe } from "../lib/loop-delay.js";
import { percentile } from "../lib/stats.js";
import { processCpuMs, processRssBytes } from "../lib/thread-cpu.js";
import { MOCK_URL_ENV, WORKERS_GRAPH_ID } from "./agent-graph.js";
import { bareRunner } from "./bare-runs.js";
import {
  agentLoadTables,
  agentLoadTargets,
  LIMITED_RUNNING_RUNS,
  type LoadFigures,
  type SubjectName,
} from "./report.js";
import { type RunWatch, watchOneRun } from "./sse-run.js";

export const TOKENS_PER_SECOND = 40;

interface Subject {
  name: SubjectName;
  pid: number;
  runOnce: (expectedTokens: number) => Promise<RunWatch>;
  lagStart(): Promise<void>;
  lagStop(): Promise<LoopDelay>;
  reset?: () => Promise<void>;
  close(): Promise<void>;
}

interface Settings {
  levels: number[];
  answerTokens: number;
  rampMs: number;
}

function settingsOf(ctx: BenchContext): Settings {
  const fromEnv = process.env.FAWN_BENCH_AGENT_LEVELS;
  const levels = fromEnv ? fromEnv.split(",").map(Number) : ctx.quick ? [4] : [50, 200, 500, 1000];
  return { levels, answerTokens: ctx.quick ? 20 : 300, rampMs: ctx.quick ? 200 : 2_000 };
}

function isLoopDelay(value: unknown): value is LoopDelay {
  return typeof value === "object" && value !== null && "p99Ms" in value && "samples" in value;
}

function childSubject(
  name: SubjectName,
  server: ChildServer,
  apiUrl: string,
  assistantId?: string,
): Subject {
  return {
    name,
    pid: server.pid,
    runOnce: (expected) => watchOneRun(apiUrl, expected, assistantId),
    lagStart: async () => {
      await server.request("lag-start");
    },
    lagStop: async () => {
      const delay = await server.request("lag-stop");
      if (!isLoopDelay(delay)) throw new Error(`${name} answered no loop-delay figures`);
      return delay;
    },
    close: () => server.stop(),
  };
}

async function startFawn(dir: string, mockUrl: string): Promise<Subject> {
  const server = await startChildServer("bench/agent-load/fawn-agent-server.ts", {
    args: [`sqlite:${join(dir, "fawn.db")}`, dir, mockUrl],
  });
  return childSubject("fawn", server, `${server.url}/api`);
}

/** The same server with `runtime.max_running_runs`: past it runs wait pending. */
async function startFawnLimited(dir: string, mockUrl: string): Promise<Subject> {
  const server = await startChildServer("bench/agent-load/fawn-agent-server.ts", {
    args: [`sqlite:${join(dir, "fawn.db")}`, dir, mockUrl],
    env: { FAWN_BENCH_MAX_RUNNING_RUNS: String(LIMITED_RUNNING_RUNS) },
  });
  return childSubject("fawn-limited", server, `${server.url}/api`);
}

/** The same graph served from `graphs:` and run in two execution worker threads. */
async function startFawnWorkers(dir: string, mockUrl: string): Promise<Subject> {
  const server = await startChildServer("bench/agent-load/fawn-agent-server.ts", {
    args: [
      `sqlite:${join(dir, "fawn.db")}`,
      dir,
      mockUrl,
      await bundleEntry("bench/agent-load/peer-graph.ts"),
      await bundleEntry("src/app/execution/execution-worker.ts"),
    ],
    env: { [MOCK_URL_ENV]: mockUrl },
  });
  return childSubject("fawn-workers", server, `${server.url}/api`, WORKERS_GRAPH_ID);
}

async function startPeer(dir: string, mockUrl: string, nWorkers: number): Promise<Subject> {
  const server = await startChildServer("bench/agent-load/peer-agent-server.ts", {
    args: [String(nWorkers), dir, await bundleEntry("bench/agent-load/peer-graph.ts")],
    env: { [MOCK_URL_ENV]: mockUrl },
  });
  const subject = childSubject("peer", server, server.url);
  subject.reset = async () => {
    const response = await fetch(`${server.url}/internal/truncate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ runs: true, threads: true, checkpointer: true }),
    });
    if (!response.ok) throw new Error(`peer truncate answered ${response.status}`);
  };
  return subject;
}

function startBare(mockUrl: string): Subject {
  const probe = new LoopDelayProbe();
  return {
    name: "bare",
    pid: process.pid,
    runOnce: bareRunner(mockUrl),
    lagStart: async () => probe.start(),
    lagStop: async () => probe.stop(),
    close: async () => undefined,
  };
}

/** N runs started evenly over the ramp, all watched to their end. */
async function measureLevel(subject: Subject, n: number, s: Settings): Promise<LoadFigures> {
  await subject.reset?.();
  const rssBefore = (await processRssBytes(subject.pid)) ?? Number.NaN;
  let rssPeak = rssBefore;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      rssPeak = Math.max(rssPeak, (await processRssBytes(subject.pid)) ?? Number.NaN);
      await sleep(250);
    }
  })();
  await subject.lagStart();
  const cpuBefore = await processCpuMs(subject.pid);
  const started = performance.now();
  const watches = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await sleep((i * s.rampMs) / n);
      return subject.runOnce(s.answerTokens);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await processCpuMs(subject.pid);
  const lag = await subject.lagStop();
  done = true;
  await sampler;
  const relay = watches.flatMap((w) => w.relayMs);
  const failed = watches.filter((w) => w.error);
  const tokens = watches.reduce((sum, w) => sum + w.tokens, 0);
  const cpuMs = cpuBefore === null || cpuAfter === null ? Number.NaN : cpuAfter - cpuBefore;
  return {
    runs: n,
    errors: failed.length,
    firstError: failed[0]?.error ?? "",
    errorKinds: errorKinds(failed.map((w) => w.error)),
    tokens,
    seconds,
    relayP50Ms: percentile(relay, 50),
    relayP99Ms: percentile(relay, 99),
    cpuMsPerRun: cpuMs / n,
    cpuUsPerToken: tokens > 0 ? (cpuMs * 1000) / tokens : Number.NaN,
    rssKiBPerRun: (rssPeak - rssBefore) / 1024 / n,
    lagP99Ms: lag.p99Ms,
  };
}

/** `fewer tokens ×12, HTTP 503 ×3`: the reasons, most frequent first. */
function errorKinds(reasons: string[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) {
    const kind = / of \d+ tokens$/.test(reason)
      ? "fewer tokens"
      : reason.replace(/\d+/g, "N").slice(0, 60);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ×${n}`)
    .join(", ");
}

async function run(ctx: BenchContext): Promise<ScriptReport> {
  const s = settingsOf(ctx);
  const dir = await mkdtemp(join(tmpdir(), "fawn-bench-agent-load-"));
  const mock = await startChildServer("bench/agent-load/paced-mock.ts", {
    args: [String(TOKENS_PER_SECOND), String(s.answerTokens)],
  });
  const all = new Map<SubjectName, Map<number, LoadFigures>>();
  try {
    const starters: Array<[SubjectName, () => Promise<Subject>]> = [
      ["fawn", () => startFawn(join(dir, "fawn"), mock.url)],
      ["fawn-limited", () => startFawnLimited(join(dir, "fawn-limited"), mock.url)],
      ["fawn-workers", () => startFawnWorkers(join(dir, "fawn-workers"), mock.url)],
      ["peer", () => startPeer(join(dir, "peer"), mock.url, Math.max(...s.levels))],
      ["bare", async () => startBare(mock.url)],
    ];
    // FAWN_BENCH_AGENT_SUBJECTS=fawn,bare: a manual run (a profile) measures only those.
    const only = process.env.FAWN_BENCH_AGENT_SUBJECTS?.split(",");
    for (const [name, start] of starters) {
      if (only && !only.includes(name)) continue;
      const subject = await start();
      const figures = new Map<number, LoadFigures>();
      all.set(subject.name, figures);
      try {
        await measureLevel(subject, Math.min(10, ...s.levels), { ...s, rampMs: 0 }); // warm-up
        for (const n of s.levels) {
          const f = await measureLevel(subject, n, s);
          figures.set(n, f);
          ctx.log(
            `agent-load: ${subject.name} N=${n}: relay p50 ${f.relayP50Ms.toFixed(1)} / p99 ` +
              `${f.relayP99Ms.toFixed(1)} ms, ${f.cpuMsPerRun.toFixed(0)} CPU ms/run, ` +
              `lag p99 ${f.lagP99Ms.toFixed(1)} ms, ${f.errors} errors ${f.firstError}`,
          );
        }
      } finally {
        await subject.close();
      }
    }
  } finally {
    await mock.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return {
    tables: agentLoadTables(all, s.levels),
    targets: agentLoadTargets(all, s.levels),
    notes: [
      `Each run: the lead agent (model ↔ tools loop, no middlewares) over the real \`@langchain/openai\` ChatOpenAI client (streaming) against a paced mock model in its own process; the model calls \`bash\` (\`echo\`, a real child process), then \`write_file\` + \`present_files\` in one turn, then streams a ${s.answerTokens}-token answer at ${TOKENS_PER_SECOND} tokens/s per stream.`,
      `N runs are started evenly over ${s.rampMs / 1000} s, each on a new thread (\`POST /threads/{id}/runs/stream\`, \`if_not_exists: create\`, modes \`values\` + \`messages-tuple\`) and read to the end by a plain fetch SSE reader in the bench process. One repetition per level (a window lasts about ${Math.ceil(s.rampMs / 1000 + s.answerTokens / TOKENS_PER_SECOND + 1)} s); a warm-up of a few runs first.`,
      "Token relay: each token's text carries its emit time in the mock (`performance.timeOrigin + performance.now()`); the reader subtracts it from its own clock when it parses the `messages` frame. Mock, server and reader share the machine's clock.",
      "Server CPU: user + system of the server process (all threads, /proc) over the window ÷ runs, and ÷ tokens relayed. RSS per run: peak RSS during the window minus RSS before it, ÷ N (no collection). Loop-lag p99: `monitorEventLoopDelay` in the server process over the window.",
      `Fawn, max_running_runs ${LIMITED_RUNNING_RUNS}: the same server with \`runtime.max_running_runs: ${LIMITED_RUNNING_RUNS}\` — past it an admitted run waits pending until one ends (relay counts from the mock's emit, so a waiting run adds no relay time, only a longer window).`,
      "Fawn, 2 execution workers: the same server with the graph served from `graphs:` (the peer's module) and `runtime.workers: 2`: each run streams in a worker thread, its checkpoints and journal written through the main thread.",
      "Peer: `@langchain/langgraph-api` in-memory `startServer`, nWorkers = the largest N (one queue worker per concurrent run, its best case), state truncated between levels. Bare: the same graph's `stream()` in the bench process (MemorySaver, modes `values` + `messages`); its CPU and RSS are the bench process's.",
      "Errors: runs whose stream failed, carried an `error` event, or relayed fewer tokens than the answer has.",
    ],
  };
}

export const agentLoadBench: BenchScript = {
  name: "agent-load",
  title: "Agent load: concurrent streaming agent runs with tool calls",
  run,
};
