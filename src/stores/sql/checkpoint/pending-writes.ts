import type { CompiledQuery, Insertable } from "kysely";
import type { CheckpointWritesTable } from "../schema.js";
import type { SqlDialectName } from "../sql-dialect-name.js";
import { sqlStatement } from "../sql-text.js";
import { chunked, LOOKUP_CHUNK } from "./list-store.js";
import type { FinalBatch } from "./put-statements.js";

const COLUMNS = [
  "thread_id",
  "checkpoint_ns",
  "checkpoint_id",
  "task_id",
  "idx",
  "channel",
  "value_type",
  "value",
  "task_path",
] as const;
const INSERT = `insert into checkpoint_writes (${COLUMNS.join(", ")}) values `;
const ROW = `(${COLUMNS.map(() => "?").join(", ")})`;
const CONFLICT = " on conflict (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)";
const KEEP_FIRST = `${CONFLICT} do nothing`;
const REPLACE = `${CONFLICT} do update set channel = excluded.channel, value_type = excluded.value_type, value = excluded.value, task_path = excluded.task_path`;

/**
 * Pending writes of one task (LangGraph's contract, as MemorySaver keeps it): a regular write
 * (idx ≥ 0) keeps the first value stored for its key, so a retried task cannot change what an
 * earlier attempt recorded; a special channel (error, interrupt, resume…: negative idx) replaces.
 * The inserts are the transaction's last statements (`finish`; `afterStatements` when the
 * transaction already ran one, its fence check). Every graph step writes these:
 * SQL text, not built by the query builder per call (see sql-text.ts).
 */
export async function writePendingWrites(
  dialect: SqlDialectName,
  finish: FinalBatch,
  rows: readonly Insertable<CheckpointWritesTable>[],
  afterStatements = false,
): Promise<void> {
  const statements = (subset: Insertable<CheckpointWritesTable>[], onConflict: string) =>
    [...chunked(subset, LOOKUP_CHUNK)].map((part) => insertRows(dialect, part, onConflict));
  await finish(
    [
      ...statements(
        rows.filter((row) => row.idx >= 0),
        KEEP_FIRST,
      ),
      ...statements(
        rows.filter((row) => row.idx < 0),
        REPLACE,
      ),
    ],
    afterStatements,
  );
}

function insertRows(
  dialect: SqlDialectName,
  rows: readonly Insertable<CheckpointWritesTable>[],
  onConflict: string,
): CompiledQuery {
  const text = `${INSERT}${rows.map(() => ROW).join(", ")}${onConflict}`;
  const params = rows.flatMap((row) => COLUMNS.map((column) => row[column]));
  return sqlStatement(dialect, text, params);
}
