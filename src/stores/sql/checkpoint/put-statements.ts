import { type CompiledQuery, type Insertable, sql } from "kysely";
import type { SqlExecutor } from "../database.js";
import type {
  CheckpointBlobsTable,
  CheckpointListsTable,
  CheckpointMessagesTable,
  CheckpointsTable,
} from "../schema.js";
import type { SqlDialectName } from "../sql-dialect-name.js";
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
  trx: SqlExecutor,
  dialect: SqlDialectName,
  finish: FinalBatch,
  rows: PutRows,
  afterStatements: boolean,
): Promise<void> {
  const inserts = [
    ...[...chunked(rows.messages, LOOKUP_CHUNK)].map((part) =>
      trx
        .insertInto("checkpoint_messages")
        .values(part)
        // Another branch of the thread may have stored the same message already.
        .onConflict((oc) => oc.columns(["thread_id", "message_hash"]).doNothing()),
    ),
    ...[...chunked(rows.lists, LOOKUP_CHUNK)].map((part) =>
      trx.insertInto("checkpoint_lists").values(part),
    ),
    ...[...chunked(rows.blobs, LOOKUP_CHUNK)].map((part) =>
      trx
        .insertInto("checkpoint_blobs")
        .values(part)
        // A version names one value: one already stored is kept.
        .onConflict((oc) =>
          oc.columns(["thread_id", "checkpoint_ns", "channel", "version"]).doNothing(),
        ),
    ),
  ];
  const checkpoint = upsertCheckpoint(trx, rows.checkpoint);
  if (dialect === "postgres" && inserts.length <= MAX_COMBINED_INSERTS) {
    const ctes = inserts.map((insert, i) => sql`${sql.raw(`put_${i}`)} as (${insert})`);
    const statement =
      ctes.length === 0 ? sql`${checkpoint}` : sql`with ${sql.join(ctes)} ${checkpoint}`;
    await finish([statement.compile(trx)], afterStatements);
    return;
  }
  await finish(
    [...inserts, checkpoint].map((query) => query.compile()),
    afterStatements,
  );
}

/**
 * Chunks combined into one PostgreSQL statement: at most 3 × 500 rows × 8 columns = 12,000
 * parameters, far below its 65,535. More means a huge first put; those run one by one.
 */
const MAX_COMBINED_INSERTS = 3;

/** The checkpoint row; a re-put of the same id replaces it. */
function upsertCheckpoint(trx: SqlExecutor, row: Insertable<CheckpointsTable>) {
  return trx
    .insertInto("checkpoints")
    .values(row)
    .onConflict((oc) =>
      oc.columns(["thread_id", "checkpoint_ns", "checkpoint_id"]).doUpdateSet((eb) => ({
        parent_checkpoint_id: eb.ref("excluded.parent_checkpoint_id"),
        checkpoint_type: eb.ref("excluded.checkpoint_type"),
        checkpoint: eb.ref("excluded.checkpoint"),
        metadata_type: eb.ref("excluded.metadata_type"),
        metadata: eb.ref("excluded.metadata"),
        list_refs: eb.ref("excluded.list_refs"),
      })),
    );
}
