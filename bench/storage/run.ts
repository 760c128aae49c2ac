/**
 * Checkpoint storage per conversation turn: Fawn's SqlCheckpointSaver next to
 * `@langchain/langgraph-checkpoint-sqlite`, each driving the same StateGraph(MessagesAnnotation)
 * chat thread (one human and one AI message of ~150 characters per turn) on its own SQLite file.
 *
 * For each checkpoint count it prints
 * - avg B/turn: live database bytes (pages minus free pages, schema baseline subtracted) / turns;
 * - marginal B/turn: bytes added by the last 10% of turns before that point, per turn — constant
 *   when storage grows linearly, growing with the turn count when every checkpoint copies the
 *   whole message list;
 * - Fawn's payload B/turn: serialized bytes its saver reported writing (no keys or indexes);
 * - s and CPU s: wall-clock and process CPU seconds (user + system, all threads, so SQLite's
 *   worker counts) from the first turn to that point. CPU seconds move less with the machine's
 *   load than wall time; both still move.
 * Figures are printed, never asserted (timing and sizes belong in bench/, not in tests).
 *
 * Usage: npm run bench:storage [-- --turns 10,100,1000] [--quick] [--savers fawn,langgraph]
 * (`--quick`: 10 and 100 turns.)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildChatGraph, humanTurn, threadConfig } from "../../test/checkpoint/chat-graph.js";
import { fawnSubject, langgraphSqliteSubject, type Subject } from "./subjects.js";

const SUBJECTS = { fawn: fawnSubject, langgraph: langgraphSqliteSubject } as const;

interface Sample {
  turns: number;
  size: number;
  payload: number | null;
  seconds: number;
  cpuSeconds: number;
  /** Size and payload at the start of the last 10% of turns before this sample. */
  windowStart: { turns: number; size: number; payload: number | null };
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function requestedTurns(): number[] {
  const value = argument("--turns");
  const fallback = process.argv.includes("--quick") ? "10,100" : "10,100,1000";
  const turns = (value ?? fallback).split(",").map(Number);
  if (turns.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`--turns takes positive integers separated by commas, got ${value}`);
  }
  return [...new Set(turns)].sort((a, b) => a - b);
}

function requestedSubjects(): Array<(dir: string) => Subject | Promise<Subject>> {
  const names = (argument("--savers") ?? "fawn,langgraph").split(",");
  return names.map((name) => {
    if (!Object.hasOwn(SUBJECTS, name)) {
      throw new Error(`--savers takes fawn and/or langgraph separated by commas, got ${name}`);
    }
    return SUBJECTS[name as keyof typeof SUBJECTS];
  });
}

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

async function measure(
  subject: Subject,
  points: number[],
): Promise<{ samples: Sample[]; seconds: number }> {
  const graph = buildChatGraph(subject.saver);
  const baseline = await subject.size();
  // The last 10% of turns, at least 10 (SQLite grows in 4 KiB pages; shorter windows are noise).
  const windowStartOf = (n: number): number => Math.max(0, n - Math.max(10, Math.floor(n / 10)));
  const starts = new Map<number, Sample["windowStart"]>();
  const samples: Sample[] = [];
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const last = points[points.length - 1] ?? 0;
  for (let turn = 1; turn <= last; turn++) {
    await graph.invoke(humanTurn(turn), threadConfig("bench"));
    const sample = {
      turns: turn,
      size: (await subject.size()) - baseline,
      payload: subject.payload(),
      seconds: (performance.now() - started) / 1000,
      cpuSeconds: cpuSecondsSince(cpuStart),
    };
    for (const n of points) if (windowStartOf(n) === turn) starts.set(n, sample);
    if (points.includes(turn)) {
      samples.push({
        ...sample,
        windowStart: starts.get(turn) ?? { turns: 0, size: 0, payload: 0 },
      });
    }
    if (turn % 100 === 0) process.stderr.write(`  ${subject.name}: ${turn} turns\n`);
  }
  return { samples, seconds: (performance.now() - started) / 1000 };
}

function perTurn(total: number, turns: number): string {
  return turns > 0 ? Math.round(total / turns).toLocaleString("en-US") : "-";
}

function marginal(
  sample: Sample,
  pick: (s: { size: number; payload: number | null }) => number | null,
): string {
  const end = pick(sample);
  const start = pick(sample.windowStart);
  if (end === null || start === null) return "-";
  return perTurn(end - start, sample.turns - sample.windowStart.turns);
}

const points = requestedTurns();
const results: Array<{ subject: string; samples: Sample[]; seconds: number }> = [];
for (const open of requestedSubjects()) {
  const dir = await mkdtemp(join(tmpdir(), "fawn-storage-bench-"));
  const subject = await open(dir);
  try {
    process.stderr.write(`${subject.name}: up to ${points[points.length - 1]} turns…\n`);
    results.push({ subject: subject.name, ...(await measure(subject, points)) });
  } finally {
    await subject.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const rows = [
  ["saver", "turns", "avg B/turn", "marginal B/turn", "payload B/turn", "db MiB", "s", "CPU s"],
];
for (const { subject, samples } of results) {
  for (const sample of samples) {
    rows.push([
      subject,
      String(sample.turns),
      perTurn(sample.size, sample.turns),
      marginal(sample, (s) => s.size),
      sample.payload === null ? "-" : perTurn(sample.payload, sample.turns),
      (sample.size / 1024 / 1024).toFixed(2),
      sample.seconds.toFixed(1),
      sample.cpuSeconds.toFixed(1),
    ]);
  }
}
const widths =
  rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
for (const [index, row] of rows.entries()) {
  const line = row.map((cell, column) =>
    column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
  );
  process.stdout.write(`${line.join("  ")}\n`);
  if (index === 0) process.stdout.write(`${widths.map((w) => "-".repeat(w)).join("  ")}\n`);
}
for (const { subject, seconds } of results) {
  process.stdout.write(`${subject}: ${seconds.toFixed(1)} s for the whole thread\n`);
}
