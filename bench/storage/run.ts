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
 * - Fawn's payload B/turn: serialized bytes its saver reported writing (no keys or indexes).
 * Figures are printed, never asserted (timing and sizes belong in bench/, not in tests).
 *
 * Usage: npm run bench:storage [-- --turns 10,100,1000]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildChatGraph, humanTurn, threadConfig } from "../../test/checkpoint/chat-graph.js";
import { fawnSubject, langgraphSqliteSubject, type Subject } from "./subjects.js";

interface Sample {
  turns: number;
  size: number;
  payload: number | null;
  /** Size and payload at the start of the last 10% of turns before this sample. */
  windowStart: { turns: number; size: number; payload: number | null };
}

function requestedTurns(): number[] {
  const at = process.argv.indexOf("--turns");
  const value = at >= 0 ? process.argv[at + 1] : undefined;
  const turns = (value ?? "10,100,1000").split(",").map(Number);
  if (turns.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`--turns takes positive integers separated by commas, got ${value}`);
  }
  return [...new Set(turns)].sort((a, b) => a - b);
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
  const last = points[points.length - 1] ?? 0;
  for (let turn = 1; turn <= last; turn++) {
    await graph.invoke(humanTurn(turn), threadConfig("bench"));
    const sample = {
      turns: turn,
      size: (await subject.size()) - baseline,
      payload: subject.payload(),
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
for (const open of [fawnSubject, langgraphSqliteSubject]) {
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

const rows = [["saver", "turns", "avg B/turn", "marginal B/turn", "payload B/turn", "db MiB"]];
for (const { subject, samples } of results) {
  for (const sample of samples) {
    rows.push([
      subject,
      String(sample.turns),
      perTurn(sample.size, sample.turns),
      marginal(sample, (s) => s.size),
      sample.payload === null ? "-" : perTurn(sample.payload, sample.turns),
      (sample.size / 1024 / 1024).toFixed(2),
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
