import Database from "better-sqlite3";
import pg from "pg";
import type { NewRunEvent } from "../../src/ports/run-event-store.js";
import { openSqlDatabase } from "../../src/stores/sql/database.js";
import { encodeEvent } from "../../src/stores/sql/event-codec.js";
import { INSERT_COLUMNS } from "../../src/stores/sql/sql-event-statements.js";

const COLUMNS = INSERT_COLUMNS;
interface Row {
  thread_id: string;
  run_id: string;
  user_id: string | null;
  event_type: string;
  category: string;
  content: string;
  event_metadata: string;
  created_at: string;
  seq: number;
}
/** Same chunking as the event store, so statements have the same shape. */
const CHUNK_ROWS = 500;

/** The journal's batches as finished table rows (encoding and seqs done before any timing). */
function rowsOf(batches: NewRunEvent[][]): Row[][] {
  const now = new Date().toISOString();
  const seqs = new Map<string, number>();
  return batches.map((batch) =>
    batch.map((event) => {
      const row = encodeEvent(event, now);
      const seq = (seqs.get(row.thread_id) ?? 0) + 1;
      seqs.set(row.thread_id, seq);
      return {
        thread_id: row.thread_id,
        run_id: row.run_id,
        user_id: row.user_id,
        event_type: row.event_type,
        category: row.category,
        content: row.content,
        event_metadata: row.metadata,
        created_at: row.created_at,
        seq,
      };
    }),
  );
}

/** Fawn's schema, created by Fawn's own migrations, so indexes and constraints are identical. */
async function migrated(url: string): Promise<void> {
  const database = await openSqlDatabase(url);
  await database.close();
}

/**
 * The ceiling on SQLite: better-sqlite3 on this thread, the store's pragmas (WAL,
 * synchronous=NORMAL), one transaction per journal batch, one prepared INSERT per row.
 */
export async function rawSqliteInserts(file: string, batches: NewRunEvent[][]): Promise<number> {
  await migrated(`sqlite:${file}`);
  const rows = rowsOf(batches);
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    const insert = db.prepare(
      `insert into run_events (${COLUMNS.join(", ")}) values (${COLUMNS.map((c) => `@${c}`).join(", ")})`,
    );
    const writeBatch = db.transaction((batch: Row[]) => {
      for (const row of batch) insert.run(row);
    });
    const started = performance.now();
    for (const batch of rows) writeBatch(batch);
    return (performance.now() - started) / 1000;
  } finally {
    db.close();
  }
}

function insertStatement(chunk: Row[]): { text: string; values: Array<string | number | null> } {
  const values: Array<string | number | null> = [];
  const tuples = chunk.map((row) => {
    const slots = COLUMNS.map((column) => {
      values.push(row[column]);
      return `$${values.length}`;
    });
    return `(${slots.join(", ")})`;
  });
  return {
    text: `insert into run_events (${COLUMNS.join(", ")}) values ${tuples.join(", ")}`,
    values,
  };
}

/**
 * The ceiling on PostgreSQL: one `pg` client per run replaying that run's batches in order
 * (runs in parallel, as the journals wrote them), each batch `BEGIN; INSERT …; COMMIT`.
 */
export async function rawPostgresInserts(url: string, batches: NewRunEvent[][]): Promise<number> {
  await migrated(url);
  const byRun = new Map<string, Row[][]>();
  for (const batch of rowsOf(batches)) {
    const key = batch[0]?.run_id;
    if (key === undefined) continue;
    byRun.set(key, [...(byRun.get(key) ?? []), batch]);
  }
  const clients = await Promise.all(
    [...byRun.keys()].map(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  try {
    const started = performance.now();
    await Promise.all(
      [...byRun.values()].map(async (runBatches, index) => {
        const client = clients[index];
        if (!client) return;
        for (const batch of runBatches) {
          await client.query("begin");
          for (let start = 0; start < batch.length; start += CHUNK_ROWS) {
            const { text, values } = insertStatement(batch.slice(start, start + CHUNK_ROWS));
            await client.query(text, values);
          }
          await client.query("commit");
        }
      }),
    );
    return (performance.now() - started) / 1000;
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}
