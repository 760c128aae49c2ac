/** The journal half of bench/events: each shape on each database, journal vs raw replay. */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { BenchContext, Table, TargetCheck } from "../lib/bench-script.js";
import { fixed, integer, ratio } from "../lib/format.js";
import { benchPostgresUrl, freshPostgresDatabase, postgresStatus } from "../lib/postgres.js";
import { median, medianOf } from "../lib/stats.js";
import { journalWrites } from "./journal-writes.js";
import { rawPostgresInserts, rawSqliteInserts } from "./raw-inserts.js";

type Backend = "SQLite" | "PostgreSQL";

interface ThroughputFigures {
  journalPerSecond: number;
  rawPerSecond: number;
  meanBatch: number;
}

/** Fresh database URLs for one measurement (journal and raw never share a table). */
interface Databases {
  next(): Promise<{ url: string; file: string | null; drop(): Promise<void> }>;
}

function sqliteDatabases(dir: string): Databases {
  let n = 0;
  return {
    async next() {
      const file = join(dir, `events-${n++}.db`);
      return { url: `sqlite:${file}`, file, drop: () => rm(file, { force: true }) };
    },
  };
}

const postgresDatabases: Databases = {
  async next() {
    const database = await freshPostgresDatabase();
    return { url: database.url, file: null, drop: database.drop };
  },
};

async function throughputOnce(
  databases: Databases,
  runs: number,
  eventsPerRun: number,
): Promise<ThroughputFigures> {
  const journalDb = await databases.next();
  const rawDb = await databases.next();
  try {
    const journal = await journalWrites(journalDb.url, runs, eventsPerRun);
    const rawSeconds = rawDb.file
      ? await rawSqliteInserts(rawDb.file, journal.batches)
      : await rawPostgresInserts(rawDb.url, journal.batches);
    return {
      journalPerSecond: journal.events / journal.seconds,
      rawPerSecond: journal.events / rawSeconds,
      meanBatch: journal.events / journal.batches.length,
    };
  } finally {
    await journalDb.drop();
    await rawDb.drop();
  }
}

const SHAPES = (quick: boolean) =>
  quick
    ? [{ runs: 2, eventsPerRun: 50 }]
    : [
        { runs: 1, eventsPerRun: 5_000 },
        { runs: 10, eventsPerRun: 1_000 },
      ];

export async function journalSection(ctx: BenchContext, dir: string) {
  const table: Table = {
    title: "Journal throughput (events/s) vs raw batched insert of the same rows",
    columns: [
      "database",
      "concurrent runs",
      "events",
      "journal events/s",
      "raw events/s",
      "journal ÷ raw",
      "mean batch",
    ],
    rows: [],
    textColumns: 1,
  };
  const targets: TargetCheck[] = [];
  const postgres = await postgresStatus();
  const backends: Array<[Backend, Databases | string]> = [
    ["SQLite", sqliteDatabases(dir)],
    ["PostgreSQL", "version" in postgres ? postgresDatabases : postgres.unreachable],
  ];
  for (const [backend, databases] of backends) {
    for (const shape of SHAPES(ctx.quick)) {
      const label = `${backend}, ${shape.runs} run${shape.runs > 1 ? "s" : ""}`;
      if (typeof databases === "string") {
        table.rows.push([backend, String(shape.runs), "-", "skipped", "-", "-", "-"]);
        targets.push({
          target: `events: journal ≥ 0.5× raw batched insert (${label})`,
          measured: `not run: ${benchPostgresUrl()} unreachable (${databases})`,
          met: null,
        });
        continue;
      }
      const reps: ThroughputFigures[] = [];
      for (let rep = 0; rep < ctx.reps; rep++) {
        reps.push(await throughputOnce(databases, shape.runs, shape.eventsPerRun));
      }
      const m = medianOf(reps, ["journalPerSecond", "rawPerSecond", "meanBatch"] as const);
      const value = median(reps.map((r) => r.journalPerSecond / r.rawPerSecond));
      ctx.log(
        `events: ${label}: journal ${integer(m.journalPerSecond)}/s, raw ${integer(m.rawPerSecond)}/s`,
      );
      table.rows.push([
        backend,
        String(shape.runs),
        integer(shape.runs * shape.eventsPerRun),
        integer(m.journalPerSecond),
        integer(m.rawPerSecond),
        ratio(value),
        fixed(m.meanBatch),
      ]);
      targets.push({
        target: `events: journal ≥ 0.5× raw batched insert (${label})`,
        measured: ratio(value),
        met: value >= 0.5,
      });
    }
  }
  const version =
    "version" in postgres ? `PostgreSQL ${postgres.version}` : "PostgreSQL unreachable";
  return { table, targets, version };
}
