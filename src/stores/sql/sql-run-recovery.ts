import type { ExpressionBuilder } from "kysely";
import type { TakeoverClaim } from "../../ports/run-store.js";
import { ACTIVE_RUN_STATUSES, type RunRow, TERMINAL_RUN_STATUSES } from "../../ports/run-types.js";
import { secondsBefore, toDbTimestamp } from "./codec.js";
import type { SqlExecutor } from "./database.js";
import { runRowFromDb } from "./run-row-codec.js";
import type { FawnTables } from "./schema.js";

/** The recovery scans' window: rows created by `before` whose lease is NULL or older than grace. */
export interface ExpiredLeaseScan {
  before: string;
  now: string;
  graceSeconds: number;
}

/** The lease test of every recovery statement: NULL, or older than `now - grace`. */
function leaseExpired(now: string, graceSeconds: number) {
  const cutoff = secondsBefore(now, graceSeconds);
  return (eb: ExpressionBuilder<FawnTables, "runs">) =>
    eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", cutoff)]);
}

const changed = (result: { numUpdatedRows: bigint }): boolean => result.numUpdatedRows > 0n;

/** `RunStore.claimForTakeover`: one conditional UPDATE of an active slot holder. */
export async function claimForTakeover(
  db: SqlExecutor,
  runId: string,
  claim: TakeoverClaim,
): Promise<boolean> {
  const expired = leaseExpired(claim.now, claim.graceSeconds);
  const result = await db
    .updateTable("runs")
    .set({
      status: "error",
      error: claim.error,
      owner_worker_id: claim.workerId,
      queued: false,
      updated_at: toDbTimestamp(claim.now, "now"),
      ...(claim.stopReason === undefined ? {} : { stop_reason: claim.stopReason }),
    })
    .where("run_id", "=", runId)
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .where("queued", "=", false)
    .where(expired)
    .executeTakeFirst();
  return changed(result);
}

/** Rows created by `before` whose lease has expired, oldest first: what both scans share. */
function expiredLeaseRows(db: SqlExecutor, scan: ExpiredLeaseScan) {
  const expired = leaseExpired(scan.now, scan.graceSeconds);
  return db
    .selectFrom("runs")
    .selectAll()
    .where("created_at", "<=", toDbTimestamp(scan.before, "before"))
    .where(expired)
    .orderBy("created_at");
}

export async function listInflightWithExpiredLease(
  db: SqlExecutor,
  scan: ExpiredLeaseScan,
): Promise<RunRow[]> {
  const records = await expiredLeaseRows(db, scan)
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .where("queued", "=", false)
    .orderBy("run_id")
    .execute();
  return records.map(runRowFromDb);
}

export async function listUnsealedTerminalWithExpiredLease(
  db: SqlExecutor,
  scan: ExpiredLeaseScan,
): Promise<RunRow[]> {
  const records = await expiredLeaseRows(db, scan)
    .where("operation_kind", "=", "run")
    .where("status", "in", TERMINAL_RUN_STATUSES)
    .where("evidence_seal_state", "=", "pending")
    .execute();
  return records.map(runRowFromDb);
}

/** `RunStore.claimUnsealedTerminal`: exactly one concurrent claimer's UPDATE matches. */
export async function claimUnsealedTerminal(
  db: SqlExecutor,
  runId: string,
  claim: { now: string; graceSeconds: number; workerId: string; error: string },
): Promise<boolean> {
  const expired = leaseExpired(claim.now, claim.graceSeconds);
  const result = await db
    .updateTable("runs")
    .set({
      evidence_seal_state: "partial",
      evidence_seal_error: claim.error,
      owner_worker_id: claim.workerId,
      updated_at: toDbTimestamp(claim.now, "now"),
    })
    .where("run_id", "=", runId)
    .where("operation_kind", "=", "run")
    .where("status", "in", TERMINAL_RUN_STATUSES)
    .where("evidence_seal_state", "=", "pending")
    .where(expired)
    .executeTakeFirst();
  return changed(result);
}
