import type { Table, TargetCheck } from "../lib/bench-script.js";
import { fixed, integer, ms, ratio } from "../lib/format.js";
import type { LoadFigures } from "./closed-loop.js";

export type SubjectName = "fawn" | "peer" | "bare";

/** A subject's medians per concurrency level, with its process's CPU per run. */
export type SubjectFigures = Map<number, LoadFigures & { cpuMsPerRun: number }>;

const LABELS: Record<SubjectName, string> = {
  fawn: "Fawn (HTTP, SQLite)",
  peer: "langgraph-api (HTTP, in-memory)",
  bare: "bare graph.stream()",
};

export function runtimeTables(all: Map<SubjectName, SubjectFigures>, levels: number[]): Table[] {
  const latency: Table = {
    title: "Runs/s and latency (ms), medians",
    columns: [
      "subject",
      "concurrency",
      "runs/s",
      "end-to-end p50",
      "end-to-end p95",
      "first event p50",
      "first event p95",
      "CPU ms/run",
      "runs/rep",
      "errors",
    ],
    rows: [],
  };
  for (const level of levels) {
    for (const [name, figures] of all) {
      const f = figures.get(level);
      if (!f) continue;
      latency.rows.push([
        LABELS[name],
        String(level),
        fixed(f.runsPerSecond),
        ms(f.p50Ms),
        ms(f.p95Ms),
        ms(f.firstEventP50Ms),
        ms(f.firstEventP95Ms),
        Number.isNaN(f.cpuMsPerRun) ? "-" : fixed(f.cpuMsPerRun, 2),
        integer(f.runs),
        integer(f.errors),
      ]);
    }
  }
  const ratios: Table = {
    title: "Throughput ratios",
    columns: [
      "concurrency",
      "Fawn runs/s",
      "peer runs/s",
      "bare runs/s",
      "Fawn ÷ peer",
      "Fawn ÷ bare",
      "Fawn ÷ peer CPU/run",
    ],
    rows: [],
  };
  for (const level of levels) {
    const rate = (name: SubjectName): number =>
      all.get(name)?.get(level)?.runsPerSecond ?? Number.NaN;
    const cpu = (name: SubjectName): number => all.get(name)?.get(level)?.cpuMsPerRun ?? Number.NaN;
    ratios.rows.push([
      String(level),
      fixed(rate("fawn")),
      fixed(rate("peer")),
      fixed(rate("bare")),
      ratio(rate("fawn") / rate("peer")),
      ratio(rate("fawn") / rate("bare")),
      ratio(cpu("fawn") / cpu("peer")),
    ]);
  }
  return [latency, ratios];
}

/** The runtime targets, judged on Fawn's medians. */
export function runtimeTargets(
  all: Map<SubjectName, SubjectFigures>,
  levels: number[],
): TargetCheck[] {
  const at = (name: SubjectName, level: number) => all.get(name)?.get(level);
  const targets: TargetCheck[] = [];
  for (const level of levels) {
    const fawn = at("fawn", level);
    const peer = at("peer", level);
    if (!fawn || !peer) continue;
    const value = fawn.runsPerSecond / peer.runsPerSecond;
    targets.push({
      target: `runtime: throughput ≥ 3× the peer's at concurrency ${level}`,
      measured: ratio(value),
      met: value >= 3,
    });
  }
  for (const level of levels) {
    const fawn = at("fawn", level);
    const bare = at("bare", level);
    // At one run at a time Fawn pays HTTP and durable writes the in-process graph does not.
    if (!fawn || !bare || level < 10) continue;
    const value = fawn.runsPerSecond / bare.runsPerSecond;
    targets.push({
      target: `runtime: throughput ≥ 0.5× the bare graph at concurrency ${level}`,
      measured: ratio(value),
      met: value >= 0.5,
    });
  }
  for (const level of levels) {
    const fawn = at("fawn", level);
    if (!fawn) continue;
    targets.push({
      target: `runtime: first SSE event p50 ≤ 10 ms at concurrency ${level}`,
      measured: `${ms(fawn.firstEventP50Ms)} ms`,
      met: fawn.firstEventP50Ms <= 10,
    });
  }
  return targets;
}
