import type { CompiledQuery, Insertable } from "kysely";
import type {
  CheckpointBlobsTable,
  CheckpointListsTable,
  CheckpointMessagesTable,
  CheckpointsTable,
} from "../schema.js";
import type { SqlDialectName } from "../sql-dialect-name.js";
import { sqlStatement } from "../sql-text.js";
import { chunked, LOOKUP_CHUNK } from "./list-store.js";

/**
 * Runs a write transaction's last statements: on SQLite in one message to the worker that also
 * carries the COMMIT, when the saver opened the transaction (rather than joined an outer one) and
 * `afterStatements` says the transaction has already sent a statement (its BEGIN with it).
 */
export type FinalBatch = (
  queries: readonly CompiledQuery[],
  afterStatements: boolean,
) => Promise<unknown>;

/** Every row one put writes. */
export interface PutRows {
  messages: Insertable<CheckpointMessagesTable>[];
  lists: Insertable<CheckpointListsTable>[];
  blobs: Insertable<CheckpointBlobsTable>[];
  checkpoint: Insertable<CheckpointsTable>;
}

/**
 * Inserts a put's rows as the last step of its transaction: one multi-row statement per table,
 * sent to SQLite's worker as one batch with the COMMIT (one message); on PostgreSQL one statement
 * whose data-modifying CTEs insert the messages, lists and blobs beside the checkpoint upsert
 * (different tables, so their order does not matter). Rows past one chunk (a first put of a long
 * imported thread) add statements.
 */
export async function insertPutRows(
  dialect: SqlDialectName,
  finish: FinalBatch,
  rows: PutRows,
  afterStatements: boolean,
): Promise<void> {
  const inserts = [
    ...[...chunked(rows.messages, LOOKUP_CHUNK)].map((part) =>
      insertText(MESSAGES, part, MESSAGES_KEEP),
    ),
    ...[...chunked(rows.lists, LOOKUP_CHUNK)].map((part) => insertText(LISTS, part, "")),
    ...[...chunked(rows.blobs, LOOKUP_CHUNK)].map((part) => insertText(BLOBS, part, BLOBS_KEEP)),
  ];
  const checkpoint = insertText(CHECKPOINTS, [rows.checkpoint], CHECKPOINT_UPSERT);
  if (dialect === "postgres" && inserts.length <= MAX_COMBINED_INSERTS) {
    const ctes = inserts.map((insert, i) => `put_${i} as (${insert.text})`);
    const text = ctes.length === 0 ? checkpoint.text : `with ${ctes.join(", ")} ${checkpoint.text}`;
    const params = [...inserts.flatMap((insert) => insert.params), ...checkpoint.params];
    await finish([sqlStatement(dialect, text, params)], afterStatements);
    return;
  }
  await finish(
    [...inserts, checkpoint].map((insert) => sqlStatement(dialect, insert.text, insert.params)),
    afterStatements,
  );
}

/** A condition every statement of a one-batch put carries: SQL with `?` slots, and its values. */
export interface PutGuard {
  condition: string;
  params: unknown[];
}

/**
 * SQLite: a whole put as statements for one self-contained batch (its own transaction, one
 * message to the worker), the checkpoint's upsert last. With a guard every INSERT is an
 * `INSERT … SELECT … WHERE guard`: when the guard fails nothing is written, and the checkpoint
 * statement reports no change.
 */
export function oneBatchPutStatements(rows: PutRows, guard: PutGuard | null): CompiledQuery[] {
  const guarded = (insert: { text: string; params: unknown[] }, suffix: string) => {
    if (guard === null) return sqlStatement("sqlite", `${insert.text}${suffix}`, insert.params);
    const asSelect = insert.text.replace(" values ", " select * from (values ");
    return sqlStatement("sqlite", `${asSelect}) where ${guard.condition}${suffix}`, [
      ...insert.params,
      ...guard.params,
    ]);
  };
  return [
    ...[...chunked(rows.messages, LOOKUP_CHUNK)].map((part) =>
      guarded(insertText(MESSAGES, part, ""), MESSAGES_KEEP),
    ),
    ...[...chunked(rows.lists, LOOKUP_CHUNK)].map((part) =>
      guarded(insertText(LISTS, part, ""), ""),
    ),
    ...[...chunked(rows.blobs, LOOKUP_CHUNK)].map((part) =>
      guarded(insertText(BLOBS, part, ""), BLOBS_KEEP),
    ),
    guarded(insertText(CHECKPOINTS, [rows.checkpoint], ""), CHECKPOINT_UPSERT),
  ];
}

// Another branch of the thread may have stored the same message already.
const MESSAGES_KEEP = ' on conflict ("thread_id", "message_hash") do nothing';
// A version names one value: one already stored is kept.
const BLOBS_KEEP = ' on conflict ("thread_id", "checkpoint_ns", "channel", "version") do nothing';

/** A table's name and the columns a put writes, in order. */
interface TableColumns<Row> {
  table: string;
  columns: readonly (keyof Row & string)[];
}

const MESSAGES: TableColumns<CheckpointMessagesTable> = {
  table: "checkpoint_messages",
  columns: ["thread_id", "message_hash", "message_type", "message"],
};
const LISTS: TableColumns<CheckpointListsTable> = {
  table: "checkpoint_lists",
  columns: ["list_id", "thread_id", "base_id", "length", "script"],
};
const BLOBS: TableColumns<CheckpointBlobsTable> = {
  table: "checkpoint_blobs",
  columns: [
    "thread_id",
    "checkpoint_ns",
    "channel",
    "version",
    "kind",
    "value_type",
    "value",
    "list_id",
  ],
};
const CHECKPOINTS: TableColumns<CheckpointsTable> = {
  table: "checkpoints",
  columns: [
    "thread_id",
    "checkpoint_ns",
    "checkpoint_id",
    "parent_checkpoint_id",
    "checkpoint_type",
    "checkpoint",
    "metadata_type",
    "metadata",
    "list_refs",
  ],
};
const CHECKPOINT_KEY: readonly (keyof CheckpointsTable & string)[] = [
  "thread_id",
  "checkpoint_ns",
  "checkpoint_id",
];
/** A re-put of the same checkpoint id replaces it: every column but the key. */
const CHECKPOINT_UPSERT = ` on conflict (${CHECKPOINT_KEY.map((column) => `"${column}"`).join(", ")}) do update set ${CHECKPOINTS.columns
  .filter((column) => !CHECKPOINT_KEY.includes(column))
  .map((column) => `"${column}" = excluded."${column}"`)
  .join(", ")}`;

/**
 * A multi-row INSERT as SQL text with `?` placeholders: every put runs these, and building them
 * with the query builder cost more main-thread CPU than the worker round trip (see sql-text.ts).
 * A column a row leaves out (a nullable one) is bound as null.
 */
function insertText<Row>(
  { table, columns }: TableColumns<Row>,
  rows: readonly Partial<Record<keyof Row, unknown>>[],
  suffix: string,
): { text: string; params: unknown[] } {
  const row = `(${columns.map(() => "?").join(", ")})`;
  const names = columns.map((column) => `"${column}"`).join(", ");
  return {
    text: `insert into "${table}" (${names}) values ${rows.map(() => row).join(", ")}${suffix}`,
    params: rows.flatMap((values) => columns.map((column) => values[column] ?? null)),
  };
}

/**
 * Chunks combined into one PostgreSQL statement: at most 3 × 500 rows × 8 columns = 12,000
 * parameters, far below its 65,535. More means a huge first put; those run one by one.
 */
const MAX_COMBINED_INSERTS = 3;
