import type { Table, TargetCheck } from "../lib/bench-script.js";
import { fixed, integer, ms, ratio } from "../lib/format.js";

export type SubjectName = "fawn" | "fawn-limited" | "fawn-workers" | "peer" | "bare";

/** `runtime.max_running_runs` of the `fawn-limited` subject. */
export const LIMITED_RUNNING_RUNS = 100;

/** One subject at one level (a single window). */
export interface LoadFigures {
  runs: number;
  errors: number;
  /** The first failed run's reason, for the log. */
  firstError: string;
  /** Failed runs by reason (digits folded, so "281 of 300 tokens" and "12 of 300" group). */
  errorKinds: string;
  tokens: number;
  seconds: number;
  relayP50Ms: number;
  relayP99Ms: number;
  cpuMsPerRun: number;
  cpuUsPerToken: number;
  rssKiBPerRun: number;
  lagP99Ms: number;
}

const LABELS: Record<SubjectName, string> = {
  fawn: "Fawn (HTTP, SQLite)",
  "fawn-limited": `Fawn, max_running_runs ${LIMITED_RUNNING_RUNS}`,
  "fawn-workers": "Fawn, 2 execution workers",
  peer: "langgraph-api (HTTP, in-memory)",
  bare: "bare graph.stream()",
};

type All = Map<SubjectName, Map<number, LoadFigures>>;

export function agentLoadTables(all: All, levels: number[]): Table[] {
  const figures: Table = {
    title: "Concurrent streaming agent runs (one window per level)",
    columns: [
      "subject",
      "N",
      "relay p50 ms",
      "relay p99 ms",
      "CPU ms/run",
      "CPU µs/token",
      "RSS KiB/run",
      "loop-lag p99 ms",
      "tokens",
      "seconds",
      "errors",
      "errors by reason",
    ],
    rows: [],
    textColumns: 1,
  };
  for (const level of levels) {
    for (const [name, byLevel] of all) {
      const f = byLevel.get(level);
      if (!f) continue;
      figures.rows.push([
        LABELS[name],
        integer(level),
        ms(f.relayP50Ms),
        ms(f.relayP99Ms),
        fixed(f.cpuMsPerRun),
        fixed(f.cpuUsPerToken),
        Number.isNaN(f.rssKiBPerRun) ? "-" : integer(f.rssKiBPerRun),
        ms(f.lagP99Ms),
        integer(f.tokens),
        fixed(f.seconds),
        integer(f.errors),
        f.errorKinds || "-",
      ]);
    }
  }
  const ratios: Table = {
    title: "Ratios measured in the same run",
    columns: [
      "N",
      "Fawn ÷ peer CPU/run",
      "Fawn ÷ bare CPU/run",
      "Fawn ÷ peer relay p99",
      "Fawn ÷ bare relay p99",
      "Fawn 2 workers ÷ Fawn relay p99",
      "Fawn limited ÷ Fawn relay p99",
    ],
    rows: [],
  };
  for (const level of levels) {
    const f = (name: SubjectName) => all.get(name)?.get(level);
    const cpu = (name: SubjectName) => f(name)?.cpuMsPerRun ?? Number.NaN;
    const p99 = (name: SubjectName) => f(name)?.relayP99Ms ?? Number.NaN;
    ratios.rows.push([
      integer(level),
      ratio(cpu("fawn") / cpu("peer")),
      ratio(cpu("fawn") / cpu("bare")),
      ratio(p99("fawn") / p99("peer")),
      ratio(p99("fawn") / p99("bare")),
      ratio(p99("fawn-workers") / p99("fawn")),
      ratio(p99("fawn-limited") / p99("fawn")),
    ]);
  }
  return [figures, ratios];
}

export function agentLoadTargets(all: All, levels: number[]): TargetCheck[] {
  const targets: TargetCheck[] = [];
  const top = Math.max(...levels);
  const fawnTop = all.get("fawn")?.get(top);
  if (fawnTop) {
    targets.push({
      target: "agent-load: 1,000 concurrent streaming runs, token relay p99 ≤ 25 ms, zero errors",
      measured: `N=${top}: p99 ${ms(fawnTop.relayP99Ms)} ms, ${fawnTop.errors} errors`,
      met: top >= 1000 && fawnTop.relayP99Ms <= 25 && fawnTop.errors === 0,
    });
  }
  for (const level of levels) {
    const fawn = all.get("fawn")?.get(level);
    const peer = all.get("peer")?.get(level);
    if (!fawn || !peer) continue;
    const value = fawn.cpuMsPerRun / peer.cpuMsPerRun;
    targets.push({
      target: `agent-load: server CPU per run ≤ ⅓ of the peer's at N=${level}`,
      measured: ratio(value),
      met: value <= 1 / 3,
    });
  }
  return targets;
}
