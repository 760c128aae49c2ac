import { CompiledQuery, sql } from "kysely";
import type { SqlExecutor } from "./database.js";
import type { SqlDialectName } from "./sql-dialect-name.js";

/**
 * PostgreSQL transaction-scoped advisory locks keyed by thread. Event writers use the one-key
 * form `pg_advisory_xact_lock(hashtext(thread_id))` (the reference's lock, so mixed deployments
 * agree); admissions use the two-key form, a separate lock space, so appending events never
 * waits for an admission. SQLite needs neither: its write transaction (BEGIN IMMEDIATE) already
 * serializes every writer of the file.
 */
const ADMISSION_LOCK_CLASS = 0x46_41_57_02;

export async function lockThreadEvents(
  trx: SqlExecutor,
  dialect: SqlDialectName,
  threadId: string,
): Promise<void> {
  if (dialect !== "postgres") return;
  await sql`select pg_advisory_xact_lock(hashtext(${threadId}))`.execute(trx);
}

/** The event lock as a statement to put first in a batch (PostgreSQL only). */
export function threadEventsLockQuery(threadId: string): CompiledQuery {
  return CompiledQuery.raw("select pg_advisory_xact_lock(hashtext($1))", [threadId]);
}

export async function lockThreadAdmission(
  trx: SqlExecutor,
  dialect: SqlDialectName,
  threadId: string,
): Promise<void> {
  if (dialect !== "postgres") return;
  await sql`select pg_advisory_xact_lock(${ADMISSION_LOCK_CLASS}, hashtext(${threadId}))`.execute(
    trx,
  );
}

/** The admission lock as a statement to put first in a batch; null where none is needed. */
export function admissionLockQuery(
  db: SqlExecutor,
  dialect: SqlDialectName,
  threadId: string,
): CompiledQuery | null {
  if (dialect !== "postgres") return null;
  return sql`select pg_advisory_xact_lock(${ADMISSION_LOCK_CLASS}, hashtext(${threadId}))`.compile(
    db,
  );
}
