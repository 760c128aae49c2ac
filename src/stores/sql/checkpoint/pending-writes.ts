import type { Insertable } from "kysely";
import type { SqlExecutor } from "../database.js";
import type { CheckpointWritesTable } from "../schema.js";
import { chunked, LOOKUP_CHUNK } from "./list-store.js";
import type { FinalBatch } from "./put-statements.js";

const WRITE_KEY = ["thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"] as const;

/**
 * Pending writes of one task (LangGraph's contract, as MemorySaver keeps it): a regular write
 * (idx ≥ 0) keeps the first value stored for its key, so a retried task cannot change what an
 * earlier attempt recorded; a special channel (error, interrupt, resume…: negative idx) replaces.
 * The inserts are the transaction's last statements (`finish`).
 */
export async function writePendingWrites(
  trx: SqlExecutor,
  finish: FinalBatch,
  rows: readonly Insertable<CheckpointWritesTable>[],
): Promise<void> {
  const keep = [
    ...chunked(
      rows.filter((row) => row.idx >= 0),
      LOOKUP_CHUNK,
    ),
  ].map((part) =>
    trx
      .insertInto("checkpoint_writes")
      .values(part)
      .onConflict((oc) => oc.columns([...WRITE_KEY]).doNothing()),
  );
  const replace = [
    ...chunked(
      rows.filter((row) => row.idx < 0),
      LOOKUP_CHUNK,
    ),
  ].map((part) =>
    trx
      .insertInto("checkpoint_writes")
      .values(part)
      .onConflict((oc) =>
        oc.columns([...WRITE_KEY]).doUpdateSet((eb) => ({
          channel: eb.ref("excluded.channel"),
          value_type: eb.ref("excluded.value_type"),
          value: eb.ref("excluded.value"),
          task_path: eb.ref("excluded.task_path"),
        })),
      ),
  );
  await finish(
    [...keep, ...replace].map((query) => query.compile()),
    false,
  );
}
