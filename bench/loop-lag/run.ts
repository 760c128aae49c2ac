/**
 * Loop lag: the Fawn server's event-loop delay (`perf_hooks.monitorEventLoopDelay`, read in the
 * server process) while 100 scripted runs stream ~200 token events each at once, through the
 * HTTP API on SQLite stores; an idle window first, for the baseline.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import type { Client } from "@langchain/langgraph-sdk";
import type { BenchContext, BenchScript, ScriptReport } from "../lib/bench-script.js";
import { type ChildServer, startChildServer } from "../lib/child-server.js";
import { fixed, integer, ms } from "../lib/format.js";
import { type LoopDelay, LoopDelayProbe } from "../lib/loop-delay.js";
import { medianOf } from "../lib/stats.js";
import { processCpuMs } from "../lib/thread-cpu.js";
import {
  BENCH_ASSISTANT,
  buildBenchGraph,
  STREAM_DELAY_MS,
  STREAM_WORDS,
  userInput,
} from "../runtime/bench-graph.js";
import { benchClient, STREAM_MODES } from "../runtime/sdk-runs.js";

interface Window extends LoopDelay {
  seconds: number;
  events: number;
  /** CPU the measured process used per event (all its threads), µs; NaN where unknown. */
  cpuUsPerEvent: number;
}

function isLoopDelay(value: unknown): value is LoopDelay {
  return typeof value === "object" && value !== null && "p99Ms" in value && "samples" in value;
}

async function window(server: ChildServer, load: () => Promise<number>): Promise<Window> {
  await server.request("lag-start");
  const cpuBefore = await processCpuMs(server.pid);
  const started = performance.now();
  const events = await load();
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await processCpuMs(server.pid);
  const delay = await server.request("lag-stop");
  if (!isLoopDelay(delay)) throw new Error("the server answered no loop-delay figures");
  const cpuUsPerEvent =
    cpuBefore === null || cpuAfter === null || events === 0
      ? Number.NaN
      : ((cpuAfter - cpuBefore) * 1000) / events;
  return { ...delay, seconds, events, cpuUsPerEvent };
}

/**
 * The reference: the same runs through the same graph's `stream()` in this process (no server,
 * no HTTP, no journal) — the delay LangGraph's own per-token work causes.
 */
async function bareWindow(runs: number): Promise<Window> {
  const graph = buildBenchGraph(new MemorySaver());
  const one = async (): Promise<number> => {
    let chunks = 0;
    const stream = await graph.stream(userInput("stream"), {
      configurable: { thread_id: randomUUID() },
      streamMode: ["values", "messages"],
    });
    for await (const _chunk of stream) chunks += 1;
    return chunks;
  };
  await one(); // warm-up
  const probe = new LoopDelayProbe();
  probe.start();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const counts = await Promise.all(Array.from({ length: runs }, one));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const events = counts.reduce((sum, n) => sum + n, 0);
  return { ...probe.stop(), seconds, events, cpuUsPerEvent: (cpu.user + cpu.system) / events };
}

/** One streaming run read to its end; returns how many SSE events it carried. */
async function streamingRun(client: Client): Promise<number> {
  let events = 0;
  for await (const chunk of client.runs.stream(randomUUID(), BENCH_ASSISTANT, {
    input: userInput("stream"),
    streamMode: [...STREAM_MODES],
    ifNotExists: "create",
  })) {
    events += 1;
    if (chunk.event === "error") throw new Error(`run failed: ${JSON.stringify(chunk.data)}`);
  }
  return events;
}

async function burst(client: Client, runs: number): Promise<number> {
  const counts = await Promise.all(Array.from({ length: runs }, () => streamingRun(client)));
  return counts.reduce((sum, n) => sum + n, 0);
}

const KEYS = ["p50Ms", "p99Ms", "maxMs", "samples", "seconds", "events", "cpuUsPerEvent"] as const;

async function run(ctx: BenchContext): Promise<ScriptReport> {
  const runs = ctx.quick ? 5 : 100;
  const idleMs = ctx.quick ? 250 : 1_000;
  const dir = await mkdtemp(join(tmpdir(), "fawn-bench-loop-lag-"));
  let server: ChildServer | null = null;
  try {
    server = await startChildServer("bench/servers/fawn-server.ts", {
      args: [`sqlite:${join(dir, "loop-lag.db")}`, dir],
    });
    const client = benchClient(`${server.url}/api`);
    const live = server;
    await burst(client, ctx.quick ? 1 : 10); // warm-up, not reported
    const idle: Window[] = [];
    const loaded: Window[] = [];
    const bare: Window[] = [];
    for (let rep = 0; rep < ctx.reps; rep++) {
      idle.push(await window(live, () => sleep(idleMs).then(() => 0)));
      loaded.push(await window(live, () => burst(client, runs)));
      bare.push(await bareWindow(runs));
    }
    const i = medianOf(idle, KEYS);
    const l = medianOf(loaded, KEYS);
    const b = medianOf(bare, KEYS);
    ctx.log(`loop-lag: ${runs} runs: p99 ${l.p99Ms.toFixed(1)} ms (idle ${i.p99Ms.toFixed(1)} ms)`);
    const row = (label: string, w: Record<(typeof KEYS)[number], number>) => [
      label,
      ms(w.p50Ms),
      ms(w.p99Ms),
      ms(w.maxMs),
      integer(w.samples),
      fixed(w.seconds, 2),
      integer(w.events),
      Number.isNaN(w.cpuUsPerEvent) || w.events === 0 ? "-" : fixed(w.cpuUsPerEvent),
    ];
    return {
      tables: [
        {
          title: "Event-loop delay in the server process (ms)",
          columns: ["window", "p50", "p99", "max", "samples", "seconds", "events", "CPU µs/event"],
          rows: [
            row(`Fawn server idle (${idleMs / 1000} s)`, i),
            row(`Fawn server, ${runs} runs streaming at once`, l),
            row(`reference: bare graph.stream(), ${runs} runs in-process`, b),
          ],
        },
      ],
      targets: [
        {
          target: `loop-lag: event-loop delay p99 ≤ 20 ms while ${runs} scripted runs stream`,
          measured: `${ms(l.p99Ms)} ms`,
          met: l.p99Ms <= 20,
        },
      ],
      notes: [
        `Each run is the lead agent over the scripted model streaming ${STREAM_WORDS} words ${STREAM_DELAY_MS} ms apart (stream modes \`values\` + \`messages-tuple\`), all ${runs} started at once by the SDK client in the bench process; the server is the Fawn gateway in its own process on SQLite stores.`,
        "Reference row: the same runs through the same graph's `stream()` (LangGraph MemorySaver, modes `values` + `messages`) inside the bench process — no server, HTTP or journal; its delay is what LangGraph's own per-token work costs. Events there are graph chunks, not SSE frames.",
        "Delay = the `monitorEventLoopDelay` histogram (5 ms sampling) minus its sampling interval; medians over repetitions.",
        "CPU µs/event: user + system CPU of the measured process (all its threads; from /proc for the server) over the window, per event — unlike the delay, it barely moves with other load on the machine.",
      ],
    };
  } finally {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export const loopLagBench: BenchScript = {
  name: "loop-lag",
  title: "Loop lag: event-loop delay while runs stream",
  run,
};
