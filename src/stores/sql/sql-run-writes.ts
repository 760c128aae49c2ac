import { completionSources, STATUS_UPDATE_SOURCES } from "../../ports/run-row.js";
import type {
  EvidenceSeal,
  FinalizeResult,
  LeaseRenewal,
  StatusUpdate,
} from "../../ports/run-store.js";
import {
  ACTIVE_RUN_STATUSES,
  type CancelAction,
  isCancelAction,
  type RunCompletionData,
  type RunStatus,
} from "../../ports/run-types.js";
import { type FencedWrite, ownershipLost, type WriteFence } from "../../ports/write-fence.js";
import { toDbTimestamp } from "./codec.js";
import type { SqlDatabase, SqlExecutor } from "./database.js";
import { completionToDb, truncateModelName } from "./run-row-codec.js";
import { isUniqueViolation } from "./sql-errors.js";
import { affectedRows, sqlStatement, sqlWordList } from "./sql-text.js";

/**
 * The guarded writes of `SqlRunStore`: each one conditional UPDATE whose affected-row count is
 * the answer. `updatedAt` (the store's clock) stamps the row where the call carries no time of its
 * own. Hot ones are SQL text (see sql-text.ts).
 */

const ACTIVE = sqlWordList(ACTIVE_RUN_STATUSES);
const UPDATABLE = sqlWordList(STATUS_UPDATE_SOURCES);

/**
 * The columns a status change writes, as SQL assignments and their parameters; any status but
 * `pending` has left the queue.
 */
function statusAssignments(
  status: RunStatus,
  update: StatusUpdate,
  updatedAt: string,
): { set: string; params: unknown[] } {
  const columns = ["status = ?", "updated_at = ?"];
  const params: unknown[] = [status, updatedAt];
  if (status !== "pending") {
    columns.push("queued = ?");
    params.push(false);
  }
  if (update.error !== undefined) {
    columns.push("error = ?");
    params.push(update.error);
  }
  if (update.stopReason !== undefined) {
    columns.push("stop_reason = ?");
    params.push(update.stopReason);
  }
  return { set: columns.join(", "), params };
}

/** The fence as a WHERE condition and its parameter (none without a fence). */
function fenceClause(fence: WriteFence | undefined): { where: string; params: unknown[] } {
  return fence
    ? { where: " and owner_worker_id = ?", params: [fence.workerId] }
    : { where: "", params: [] };
}

/**
 * After a fenced UPDATE changed nothing: was it the fence? The UPDATE decided atomically; this
 * read only explains its answer (an owner that changed since then was lost all the same).
 */
async function explainRefusal(
  db: SqlExecutor,
  fence: WriteFence | undefined,
  what: string,
): Promise<void> {
  if (!fence) return;
  const record = await db
    .selectFrom("runs")
    .select("owner_worker_id")
    .where("run_id", "=", fence.runId)
    .executeTakeFirst();
  if (record?.owner_worker_id !== fence.workerId) throw ownershipLost(fence, what);
}

async function cancelActionOf(db: SqlExecutor, runId: string): Promise<CancelAction | null> {
  const record = await db
    .selectFrom("runs")
    .select("cancel_action")
    .where("run_id", "=", runId)
    .executeTakeFirst();
  return isCancelAction(record?.cancel_action) ? record.cancel_action : null;
}

/** A raw UPDATE; true when it changed a row, else the fence (if any) is asked why not. */
async function updateOrExplain(
  database: SqlDatabase,
  text: string,
  params: readonly unknown[],
  fence: WriteFence | undefined,
  what: string,
): Promise<boolean> {
  const db = database.executor();
  const result = await db.executeQuery(sqlStatement(database.dialect, text, params));
  if (affectedRows(result) > 0) return true;
  await explainRefusal(db, fence, what);
  return false;
}

export async function updateStatus(
  database: SqlDatabase,
  runId: string,
  status: RunStatus,
  update: StatusUpdate,
  updatedAt: string,
): Promise<boolean | null> {
  const { set, params } = statusAssignments(status, update, updatedAt);
  const fence = fenceClause(update.fence);
  try {
    return await updateOrExplain(
      database,
      `update runs set ${set} where run_id = ? and status in ${UPDATABLE}${fence.where}`,
      [...params, runId, ...fence.params],
      update.fence,
      "update the status",
    );
  } catch (error) {
    // Reactivating a row while the thread has another active one: provably nothing changed.
    if (!isUniqueViolation(error)) throw error;
  }
  await explainRefusal(database.executor(), update.fence, "update the status");
  return false;
}

export function startRun(
  database: SqlDatabase,
  runId: string,
  now: string,
  options: FencedWrite,
): Promise<boolean> {
  const fence = fenceClause(options.fence);
  return updateOrExplain(
    database,
    `update runs set status = 'running', updated_at = ? where run_id = ? and status = 'pending' and queued = ?${fence.where}`,
    [toDbTimestamp(now, "now"), runId, false, ...fence.params],
    options.fence,
    "start",
  );
}

export async function finalizeIfNotCancelled(
  database: SqlDatabase,
  runId: string,
  status: RunStatus,
  update: StatusUpdate,
  updatedAt: string,
): Promise<FinalizeResult> {
  const { set, params } = statusAssignments(status, update, updatedAt);
  const fence = fenceClause(update.fence);
  const finalized = await updateOrExplain(
    database,
    `update runs set ${set} where run_id = ? and status in ${ACTIVE} and cancel_action is null${fence.where}`,
    [...params, runId, ...fence.params],
    update.fence,
    "finalize",
  );
  if (finalized) return { finalized: true, cancelAction: null };
  return { finalized: false, cancelAction: await cancelActionOf(database.executor(), runId) };
}

export async function requestCancel(
  database: SqlDatabase,
  runId: string,
  action: CancelAction,
  now: string,
): Promise<CancelAction | null> {
  const db = database.executor();
  const at = toDbTimestamp(now, "now");
  const won = await db
    .updateTable("runs")
    .set({ cancel_action: action, cancel_requested_at: at, updated_at: at })
    .where("run_id", "=", runId)
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .where("cancel_action", "is", null)
    .returning("cancel_action")
    .executeTakeFirst();
  // This call's write is the answer even if the row is finalized a moment later.
  if (won !== undefined) return action;
  // Otherwise an earlier request won (report it while the row is active) or the row is done.
  const record = await db
    .selectFrom("runs")
    .select(["cancel_action", "status"])
    .where("run_id", "=", runId)
    .executeTakeFirst();
  if (record === undefined || !ACTIVE_RUN_STATUSES.includes(record.status as RunStatus)) {
    return null;
  }
  return isCancelAction(record.cancel_action) ? record.cancel_action : null;
}

export async function renewLease(
  database: SqlDatabase,
  runId: string,
  ownerWorkerId: string,
  leaseExpiresAt: string,
  updatedAt: string,
): Promise<LeaseRenewal> {
  const db = database.executor();
  const renewed = await db
    .updateTable("runs")
    .set({
      lease_expires_at: toDbTimestamp(leaseExpiresAt, "lease_expires_at"),
      updated_at: updatedAt,
    })
    .where("run_id", "=", runId)
    .where("owner_worker_id", "=", ownerWorkerId)
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .returning("cancel_action")
    .executeTakeFirst();
  if (renewed !== undefined) {
    return {
      renewed: true,
      cancelAction: isCancelAction(renewed.cancel_action) ? renewed.cancel_action : null,
    };
  }
  return { renewed: false, cancelAction: await cancelActionOf(db, runId) };
}

export function updateRunCompletion(
  database: SqlDatabase,
  runId: string,
  status: RunStatus,
  completion: Partial<RunCompletionData> & StatusUpdate,
  updatedAt: string,
): Promise<boolean> {
  const { error, stopReason, fence: runFence, ...data } = completion;
  const fence = fenceClause(runFence);
  const counters = Object.entries(completionToDb(data));
  const { set, params } = statusAssignments(status, { error, stopReason }, updatedAt);
  const assignments = [...counters.map(([column]) => `${column} = ?`), set].join(", ");
  return updateOrExplain(
    database,
    `update runs set ${assignments} where run_id = ? and status in ${sqlWordList(completionSources(status))}${fence.where}`,
    [...counters.map(([, value]) => value), ...params, runId, ...fence.params],
    runFence,
    "record the completion",
  );
}

export async function updateRunProgress(
  database: SqlDatabase,
  runId: string,
  progress: Partial<RunCompletionData>,
  { fence }: FencedWrite,
  updatedAt: string,
): Promise<void> {
  const db = database.executor();
  const result = await db
    .updateTable("runs")
    .set({ ...completionToDb(progress), updated_at: updatedAt })
    .where("run_id", "=", runId)
    .where("status", "=", "running")
    .$if(fence !== undefined, (qb) => qb.where("owner_worker_id", "=", fence?.workerId ?? ""))
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) await explainRefusal(db, fence, "record progress");
}

export async function updateModelName(
  database: SqlDatabase,
  runId: string,
  modelName: string,
  { fence }: FencedWrite,
  updatedAt: string,
): Promise<void> {
  const db = database.executor();
  const result = await db
    .updateTable("runs")
    .set({ model_name: truncateModelName(modelName), updated_at: updatedAt })
    .where("run_id", "=", runId)
    .$if(fence !== undefined, (qb) => qb.where("owner_worker_id", "=", fence?.workerId ?? ""))
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) await explainRefusal(db, fence, "record the model name");
}

export function updateEvidenceSeal(
  database: SqlDatabase,
  runId: string,
  seal: EvidenceSeal,
  options: FencedWrite,
  updatedAt: string,
): Promise<boolean> {
  const fence = fenceClause(options.fence);
  return updateOrExplain(
    database,
    `update runs set evidence_seal_state = ?, evidence_seal_error = ?, evidence_upper_seq = ?, evidence_event_count = ?, updated_at = ? where run_id = ?${fence.where}`,
    [
      seal.state,
      seal.error ?? null,
      seal.upperSeq ?? null,
      seal.eventCount ?? null,
      updatedAt,
      runId,
      ...fence.params,
    ],
    options.fence,
    "seal the evidence",
  );
}
