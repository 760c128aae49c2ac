/**
 * Storage: wires the storage engineer's `bench/storage/run.ts` (checkpoint bytes per turn, Fawn's
 * saver next to `@langchain/langgraph-checkpoint-sqlite`) into the harness: runs it in its own
 * process, reads its table, and judges "flat bytes per turn". Its figures are sizes, identical
 * from run to run, so it runs once.
 */
import { spawn } from "node:child_process";
import type { BenchContext, BenchScript, ScriptReport, TargetCheck } from "../lib/bench-script.js";
import { bundleEntry } from "../lib/bundle.js";
import { ratio } from "../lib/format.js";
import { repoRoot } from "../lib/paths.js";
import { parseStorageTable, type StorageRow } from "./storage-table.js";

const FAWN_SAVER = "fawn SqlCheckpointSaver";
const PEER_SAVER = "@langchain/langgraph-checkpoint-sqlite";
/** "Flat": the last window's bytes per turn within this factor of the previous point's. */
const FLAT_TOLERANCE = 1.5;

async function runStorageScript(turns: number[]): Promise<string> {
  const bundle = await bundleEntry("bench/storage/run.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, "--turns", turns.join(",")], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`bench/storage/run.ts exited with ${code}`)),
    );
  });
}

function flatness(rows: StorageRow[], turns: number[]): TargetCheck {
  const fawn = rows.filter((r) => r.saver === FAWN_SAVER);
  const last = fawn.find((r) => r.turns === turns[turns.length - 1]);
  const previous = fawn.find((r) => r.turns === turns[turns.length - 2]);
  if (!last || !previous) {
    return { target: "storage: flat bytes per turn", measured: "no Fawn rows", met: null };
  }
  const growth = last.marginalBytesPerTurn / previous.marginalBytesPerTurn;
  return {
    target: `storage: flat bytes per turn (Fawn's marginal B/turn at ${last.turns} turns within ${FLAT_TOLERANCE}× of that at ${previous.turns})`,
    measured: `${Math.round(previous.marginalBytesPerTurn).toLocaleString("en-US")} → ${Math.round(last.marginalBytesPerTurn).toLocaleString("en-US")} B/turn (${ratio(growth)})`,
    met: growth <= FLAT_TOLERANCE,
  };
}

async function run(ctx: BenchContext): Promise<ScriptReport> {
  const turns = ctx.quick ? [5, 10] : [10, 100, 1_000];
  const started = performance.now();
  const output = await runStorageScript(turns);
  const { table, rows, footer } = parseStorageTable(output);
  ctx.log(`storage: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const at = (saver: string) =>
    rows.find((r) => r.saver === saver && r.turns === turns[turns.length - 1]);
  const fawnLast = at(FAWN_SAVER);
  const peerLast = at(PEER_SAVER);
  if (fawnLast && peerLast) {
    table.columns.push("vs peer (avg B/turn)");
    for (const [index, row] of rows.entries()) {
      const peer = rows.find((r) => r.saver === PEER_SAVER && r.turns === row.turns);
      table.rows[index]?.push(
        row.saver === FAWN_SAVER && peer ? ratio(row.avgBytesPerTurn / peer.avgBytesPerTurn) : "",
      );
    }
  }
  return {
    tables: [table],
    targets: [flatness(rows, turns)],
    notes: [
      "From `bench/storage/run.ts` (see its header): one chat thread per saver, one ~150-character human and AI message per turn, each saver on its own SQLite file; avg = live database bytes / turns, marginal = bytes added by the last 10% of turns (≥ 10) per turn, payload = serialized bytes Fawn's saver reported.",
      ...footer,
      "Sizes do not vary between runs, so this script runs once (no repetitions).",
    ],
  };
}

export const storageBench: BenchScript = {
  name: "storage",
  title: "Storage: checkpoint bytes per turn",
  run,
};
