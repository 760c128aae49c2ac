/**
 * Events: journal throughput into SQLite and PostgreSQL next to a raw batched insert of the same
 * rows, and SSE fan-out — N idle subscribers on one run through the HTTP API (memory bridge).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchContext, BenchScript, ScriptReport } from "../lib/bench-script.js";
import { fanOutSection } from "./fan-out-section.js";
import { journalSection } from "./journal-section.js";

async function run(ctx: BenchContext): Promise<ScriptReport> {
  const dir = await mkdtemp(join(tmpdir(), "fawn-bench-events-"));
  try {
    const journal = await journalSection(ctx, dir);
    const fanOut = await fanOutSection(ctx, dir);
    return {
      tables: [journal.table, fanOut.table],
      targets: [...journal.targets, fanOut.target],
      notes: [
        "Journal: `RunJournal` over the real SQL event store on a freshly migrated database; each run appends message-sized events (~300 B of JSON), yielding to the event loop after each like callbacks during a run, then closes. Time: first append → last batch committed.",
        "Raw: the very batches the journal wrote (same rows, same sizes, seqs and JSON encoded beforehand) into a fresh table made by the same migrations — SQLite: better-sqlite3 on the bench thread, same pragmas, one transaction per batch; PostgreSQL: one `pg` client per run, `BEGIN; INSERT …; COMMIT` per batch.",
        `${journal.version} at \`FAWN_TEST_POSTGRES_URL\` (a fresh database per measurement, dropped after). SQLite: WAL, synchronous=NORMAL, on ${tmpdir()}.`,
        "Fan-out: the Fawn gateway in its own process (SQLite stores, in-memory bridge); one run whose model never answers; N raw HTTP `GET /api/threads/{id}/runs/{id}/stream` subscribers opened 100 at a time; heap and RSS read in the server after a full GC, minus the same with the run alone, per subscriber; then the run is cancelled. RSS moves in allocator-sized steps (it can even shrink after the GC): heap per stream is the figure to read.",
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const eventsBench: BenchScript = {
  name: "events",
  title: "Events: journal throughput and SSE fan-out",
  run,
};
