import { sql } from "kysely";
import type { SqlExecutor } from "../database.js";
import type { SqlDialectName } from "../sql-dialect-name.js";

/**
 * Per-thread checkpoint lock, held for one transaction. PostgreSQL: a transaction-scoped advisory
 * lock in its own key class (separate from event and admission locks); writers (put, putWrites,
 * deleteThread) take it exclusively, readers shared, so a read never sees half of a thread
 * deletion. SQLite needs nothing: every transaction there is a write transaction (BEGIN
 * IMMEDIATE), which already serializes all of them.
 */
const CHECKPOINT_LOCK_CLASS = 0x46_41_57_03;

export async function lockThreadCheckpoints(
  trx: SqlExecutor,
  dialect: SqlDialectName,
  threadId: string,
  mode: "exclusive" | "shared",
): Promise<void> {
  if (dialect !== "postgres") return;
  if (mode === "exclusive") {
    await sql`select pg_advisory_xact_lock(${CHECKPOINT_LOCK_CLASS}, hashtext(${threadId}))`.execute(
      trx,
    );
  } else {
    await sql`select pg_advisory_xact_lock_shared(${CHECKPOINT_LOCK_CLASS}, hashtext(${threadId}))`.execute(
      trx,
    );
  }
}
