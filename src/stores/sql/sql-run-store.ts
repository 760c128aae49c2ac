import { runUrgent } from "../../core/async/urgency.js";
import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import { ConflictError, ValidationError } from "../../core/errors.js";
import type {
  AdmissionOptions,
  AdmissionResult,
  EvidenceSeal,
  FinalizeResult,
  LeaseRenewal,
  ListRunsOptions,
  NewThreadOperation,
  OwnerScope,
  RunStore,
  StatusUpdate,
  TakeoverClaim,
} from "../../ports/run-store.js";
import {
  ACTIVE_RUN_STATUSES,
  type CancelAction,
  isCancelAction,
  type RunCompletionData,
  type RunRow,
  type RunStatus,
  TERMINAL_RUN_STATUSES,
} from "../../ports/run-types.js";
import { type FencedWrite, ownershipLost, type WriteFence } from "../../ports/write-fence.js";
import { admissionLockQuery } from "./advisory-locks.js";
import { secondsBefore, toDbTimestamp } from "./codec.js";
import type { SqlDatabase, SqlExecutor } from "./database.js";
import {
  completionToDb,
  type RunsInsert,
  type RunsRecord,
  runRowFromDb,
  runRowToDb,
  truncateModelName,
} from "./run-row-codec.js";
import { isUniqueViolation, toStoreError } from "./sql-errors.js";
import { admitThreadOperation } from "./sql-run-admission.js";
import { affectedRows, sqlStatement, sqlWordList } from "./sql-text.js";

/** Sources `updateStatus` may move a row from: terminal rows other than `interrupted` are frozen. */
const UPDATABLE_STATUSES: readonly RunStatus[] = ["pending", "running", "interrupted"];

export interface SqlStoreOptions {
  /** Stamps `updated_at` for writes whose signature carries no `now`. */
  clock?: Clock;
  /** Close the database with the store (default false: the database is shared). */
  ownsDatabase?: boolean;
}

const ACTIVE = sqlWordList(ACTIVE_RUN_STATUSES);
const UPDATABLE = sqlWordList(UPDATABLE_STATUSES);

/**
 * The columns a status change writes, as SQL assignments and their parameters; any status but
 * `pending` has left the queue.
 */
function statusAssignments(
  status: RunStatus,
  update: StatusUpdate,
  now: string,
): { set: string; params: unknown[] } {
  const columns = ["status = ?", "updated_at = ?"];
  const params: unknown[] = [status, now];
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

const changed = (result: { numUpdatedRows: bigint } | { numDeletedRows: bigint }): number =>
  Number("numUpdatedRows" in result ? result.numUpdatedRows : result.numDeletedRows);

/**
 * The oldest queued row of a thread leaves the queue, only while no row holds the thread's slot.
 * Parameters: false, now, thread, true, true, thread, false.
 */
const PROMOTE_NEXT_QUEUED = `update runs set queued = ?, updated_at = ?
where run_id = (
  select run_id from runs where thread_id = ? and status = 'pending' and queued = ?
  order by created_at, run_id limit 1
)
and status = 'pending' and queued = ?
and not exists (
  select 1 from runs as holder
  where holder.thread_id = ? and holder.status in ${ACTIVE} and holder.queued = ?
)
returning *`;

/**
 * Durable run rows over Kysely (SQLite or PostgreSQL). Every guarded write is one conditional
 * UPDATE whose affected-row count is the answer.
 */
export class SqlRunStore implements RunStore {
  private readonly clock: Clock;

  constructor(
    private readonly database: SqlDatabase,
    private readonly options: SqlStoreOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  private get db(): SqlExecutor {
    return this.database.executor();
  }

  private now(): string {
    return isoNow(this.clock);
  }

  /**
   * After a fenced UPDATE changed nothing: was it the fence? The UPDATE decided atomically; this
   * read only explains its answer (an owner that changed since then was lost all the same).
   */
  private async explainRefusal(fence: WriteFence | undefined, what: string): Promise<void> {
    if (!fence) return;
    const record = await this.db
      .selectFrom("runs")
      .select("owner_worker_id")
      .where("run_id", "=", fence.runId)
      .executeTakeFirst();
    if (record?.owner_worker_id !== fence.workerId) throw ownershipLost(fence, what);
  }

  private async wrap<T>(action: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toStoreError(error, action);
    }
  }

  createThreadOperation(
    input: NewThreadOperation,
    options: AdmissionOptions,
  ): Promise<AdmissionResult> {
    // A client waits on admission (its SSE `metadata` frame): served before queued writes.
    return runUrgent(() => admitThreadOperation(this.database, input, options));
  }

  get(runId: string, scope: OwnerScope = {}): Promise<RunRow | null> {
    return this.wrap("read a run", async () => {
      const record = await this.db
        .selectFrom("runs")
        .selectAll()
        .where("run_id", "=", runId)
        .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
        .executeTakeFirst();
      return record === undefined ? null : runRowFromDb(record);
    });
  }

  getByIdempotencyKey(key: string): Promise<RunRow | null> {
    return this.wrap("read a run by idempotency key", async () => {
      const record = await this.db
        .selectFrom("runs")
        .selectAll()
        .where("idempotency_key", "=", key)
        .executeTakeFirst();
      return record === undefined ? null : runRowFromDb(record);
    });
  }

  listByThread(threadId: string, options: ListRunsOptions = {}): Promise<RunRow[]> {
    return this.wrap("list a thread's runs", async () => {
      const limit = options.limit ?? 100;
      if (limit <= 0) return [];
      const records = await this.db
        .selectFrom("runs")
        .selectAll()
        .where("thread_id", "=", threadId)
        .where("operation_kind", "=", "run")
        .$if(options.userId != null, (qb) => qb.where("user_id", "=", options.userId ?? null))
        .$if(options.status !== undefined, (qb) =>
          qb.where("status", "=", options.status ?? "pending"),
        )
        .orderBy("created_at", "desc")
        .orderBy("run_id", "desc")
        .limit(limit)
        .offset(Math.max(0, options.offset ?? 0))
        .execute();
      return records.map(runRowFromDb);
    });
  }

  put(row: RunRow): Promise<void> {
    return this.wrap("store a run", async () => {
      const values = runRowToDb(row);
      try {
        await this.upsert(values);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw new ConflictError(
          `Run ${row.run_id} cannot be stored as ${row.status}: thread ${row.thread_id} already has another active run, or the idempotency key is taken.`,
          { cause: error },
        );
      }
    });
  }

  private async upsert(values: RunsInsert): Promise<void> {
    const { run_id: _runId, cancel_action: _action, cancel_requested_at: _at, ...rest } = values;
    await this.db
      .insertInto("runs")
      .values(values)
      .onConflict((oc) =>
        oc.column("run_id").doUpdateSet((eb) => ({
          ...rest,
          // A snapshot taken before a cancel request must not erase that request.
          cancel_action: eb.fn.coalesce("runs.cancel_action", "excluded.cancel_action"),
          cancel_requested_at: eb.fn.coalesce(
            "runs.cancel_requested_at",
            "excluded.cancel_requested_at",
          ),
        })),
      )
      .execute();
  }

  updateStatus(
    runId: string,
    status: RunStatus,
    update: StatusUpdate = {},
  ): Promise<boolean | null> {
    return this.wrap("update a run's status", async () => {
      try {
        const { set, params } = statusAssignments(status, update, this.now());
        const fence = fenceClause(update.fence);
        const result = await this.db.executeQuery(
          sqlStatement(
            this.database.dialect,
            `update runs set ${set} where run_id = ? and status in ${UPDATABLE}${fence.where}`,
            [...params, runId, ...fence.params],
          ),
        );
        if (affectedRows(result) > 0) return true;
      } catch (error) {
        // Reactivating a row while the thread has another active one: provably nothing changed.
        if (!isUniqueViolation(error)) throw error;
      }
      await this.explainRefusal(update.fence, "update the status");
      return false;
    });
  }

  startRun(runId: string, now: string, options: FencedWrite = {}): Promise<boolean> {
    return this.wrap("start a run", async () => {
      const fence = fenceClause(options.fence);
      const result = await this.db.executeQuery(
        sqlStatement(
          this.database.dialect,
          `update runs set status = 'running', updated_at = ? where run_id = ? and status = 'pending' and queued = ?${fence.where}`,
          [toDbTimestamp(now, "now"), runId, false, ...fence.params],
        ),
      );
      if (affectedRows(result) > 0) return true;
      await this.explainRefusal(options.fence, "start");
      return false;
    });
  }

  finalizeIfNotCancelled(
    runId: string,
    status: RunStatus,
    update: StatusUpdate = {},
  ): Promise<FinalizeResult> {
    return this.wrap("finalize a run", async () => {
      const { set, params } = statusAssignments(status, update, this.now());
      const fence = fenceClause(update.fence);
      const result = await this.db.executeQuery(
        sqlStatement(
          this.database.dialect,
          `update runs set ${set} where run_id = ? and status in ${ACTIVE} and cancel_action is null${fence.where}`,
          [...params, runId, ...fence.params],
        ),
      );
      if (affectedRows(result) > 0) return { finalized: true, cancelAction: null };
      await this.explainRefusal(update.fence, "finalize");
      return { finalized: false, cancelAction: await this.cancelActionOf(runId) };
    });
  }

  requestCancel(runId: string, action: CancelAction, now: string): Promise<CancelAction | null> {
    if (!isCancelAction(action)) {
      return Promise.reject(
        new ValidationError(
          `Invalid cancel action "${String(action)}"; use interrupt or rollback.`,
        ),
      );
    }
    return this.wrap("request a run's cancellation", async () => {
      const at = toDbTimestamp(now, "now");
      const won = await this.db
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
      const record = await this.db
        .selectFrom("runs")
        .select(["cancel_action", "status"])
        .where("run_id", "=", runId)
        .executeTakeFirst();
      if (record === undefined || !ACTIVE_RUN_STATUSES.includes(record.status as RunStatus)) {
        return null;
      }
      return isCancelAction(record.cancel_action) ? record.cancel_action : null;
    });
  }

  renewLease(runId: string, ownerWorkerId: string, leaseExpiresAt: string): Promise<LeaseRenewal> {
    return this.wrap("renew a run's lease", async () => {
      const renewed = await this.db
        .updateTable("runs")
        .set({
          lease_expires_at: toDbTimestamp(leaseExpiresAt, "lease_expires_at"),
          updated_at: this.now(),
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
      return { renewed: false, cancelAction: await this.cancelActionOf(runId) };
    });
  }

  claimForTakeover(runId: string, claim: TakeoverClaim): Promise<boolean> {
    return this.wrap("take over a run", async () => {
      const cutoff = secondsBefore(claim.now, claim.graceSeconds);
      const result = await this.db
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
        .where((eb) =>
          eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", cutoff)]),
        )
        .executeTakeFirst();
      return changed(result) > 0;
    });
  }

  listUnsealedTerminalWithExpiredLease(options: {
    before: string;
    now: string;
    graceSeconds: number;
  }): Promise<RunRow[]> {
    return this.wrap("list unsealed finished runs", async () => {
      const cutoff = secondsBefore(options.now, options.graceSeconds);
      const records = await this.db
        .selectFrom("runs")
        .selectAll()
        .where("operation_kind", "=", "run")
        .where("status", "in", TERMINAL_RUN_STATUSES)
        .where("evidence_seal_state", "=", "pending")
        .where("created_at", "<=", toDbTimestamp(options.before, "before"))
        .where((eb) =>
          eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", cutoff)]),
        )
        .orderBy("created_at")
        .execute();
      return records.map(runRowFromDb);
    });
  }

  claimUnsealedTerminal(
    runId: string,
    claim: { now: string; graceSeconds: number; workerId: string; error: string },
  ): Promise<boolean> {
    return this.wrap("claim an unsealed finished run", async () => {
      const cutoff = secondsBefore(claim.now, claim.graceSeconds);
      const result = await this.db
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
        .where((eb) =>
          eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", cutoff)]),
        )
        .executeTakeFirst();
      return changed(result) > 0;
    });
  }

  listInflightWithExpiredLease(options: {
    before: string;
    now: string;
    graceSeconds: number;
  }): Promise<RunRow[]> {
    return this.wrap("list runs with expired leases", async () => {
      const cutoff = secondsBefore(options.now, options.graceSeconds);
      const records = await this.db
        .selectFrom("runs")
        .selectAll()
        .where("status", "in", ACTIVE_RUN_STATUSES)
        .where("queued", "=", false)
        .where("created_at", "<=", toDbTimestamp(options.before, "before"))
        .where((eb) =>
          eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", cutoff)]),
        )
        .orderBy("created_at")
        .orderBy("run_id")
        .execute();
      return records.map(runRowFromDb);
    });
  }

  updateRunCompletion(
    runId: string,
    status: RunStatus,
    completion: Partial<RunCompletionData> & StatusUpdate,
  ): Promise<boolean> {
    return this.wrap("record a run's completion", async () => {
      const { error, stopReason, fence: runFence, ...data } = completion;
      const fence = fenceClause(runFence);
      const sources: RunStatus[] = [...ACTIVE_RUN_STATUSES, status];
      if (status === "error") sources.push("interrupted");
      const counters = Object.entries(completionToDb(data));
      const { set, params } = statusAssignments(status, { error, stopReason }, this.now());
      const assignments = [...counters.map(([column]) => `${column} = ?`), set].join(", ");
      const result = await this.db.executeQuery(
        sqlStatement(
          this.database.dialect,
          `update runs set ${assignments} where run_id = ? and status in ${sqlWordList(sources)}${fence.where}`,
          [...counters.map(([, value]) => value), ...params, runId, ...fence.params],
        ),
      );
      if (affectedRows(result) > 0) return true;
      await this.explainRefusal(runFence, "record the completion");
      return false;
    });
  }

  updateRunProgress(
    runId: string,
    progress: Partial<RunCompletionData>,
    options: FencedWrite = {},
  ): Promise<void> {
    return this.wrap("record a run's progress", async () => {
      const { fence } = options;
      const result = await this.db
        .updateTable("runs")
        .set({ ...completionToDb(progress), updated_at: this.now() })
        .where("run_id", "=", runId)
        .where("status", "=", "running")
        .$if(fence !== undefined, (qb) => qb.where("owner_worker_id", "=", fence?.workerId ?? ""))
        .executeTakeFirst();
      if (changed(result) === 0) await this.explainRefusal(fence, "record progress");
    });
  }

  updateModelName(runId: string, modelName: string, options: FencedWrite = {}): Promise<void> {
    return this.wrap("record a run's model", async () => {
      const { fence } = options;
      const result = await this.db
        .updateTable("runs")
        .set({ model_name: truncateModelName(modelName), updated_at: this.now() })
        .where("run_id", "=", runId)
        .$if(fence !== undefined, (qb) => qb.where("owner_worker_id", "=", fence?.workerId ?? ""))
        .executeTakeFirst();
      if (changed(result) === 0) await this.explainRefusal(fence, "record the model name");
    });
  }

  updateEvidenceSeal(
    runId: string,
    seal: EvidenceSeal,
    options: FencedWrite = {},
  ): Promise<boolean> {
    return this.wrap("seal a run's evidence", async () => {
      const fence = fenceClause(options.fence);
      const result = await this.db.executeQuery(
        sqlStatement(
          this.database.dialect,
          `update runs set evidence_seal_state = ?, evidence_seal_error = ?, evidence_upper_seq = ?, evidence_event_count = ?, updated_at = ? where run_id = ?${fence.where}`,
          [
            seal.state,
            seal.error ?? null,
            seal.upperSeq ?? null,
            seal.eventCount ?? null,
            this.now(),
            runId,
            ...fence.params,
          ],
        ),
      );
      if (affectedRows(result) > 0) return true;
      await this.explainRefusal(options.fence, "seal the evidence");
      return false;
    });
  }

  /**
   * One conditional UPDATE picks the oldest queued row and promotes it only while no row holds
   * the thread's slot; on SQLite that is one worker message (a batch of one), on PostgreSQL it
   * runs after the thread's admission lock in one transaction.
   */
  async promoteNextQueued(threadId: string): Promise<RunRow | null> {
    try {
      const db = this.db;
      const promote = sqlStatement(this.database.dialect, PROMOTE_NEXT_QUEUED, [
        false,
        this.now(),
        threadId,
        true,
        true,
        threadId,
        false,
      ]);
      const lock = admissionLockQuery(db, this.database.dialect, threadId);
      const results = await this.database.executeBatch(lock === null ? [promote] : [lock, promote]);
      const promoted = results.at(-1)?.rows[0] as RunsRecord | undefined;
      return promoted === undefined ? null : runRowFromDb(promoted);
    } catch (error) {
      // The partial unique index refused: another row took the thread's slot first.
      if (isUniqueViolation(error)) return null;
      throw toStoreError(error, "promote a queued run");
    }
  }

  delete(runId: string, scope: OwnerScope = {}): Promise<boolean> {
    return this.wrap("delete a run", async () => {
      const result = await this.db
        .deleteFrom("runs")
        .where("run_id", "=", runId)
        .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
        .executeTakeFirst();
      return changed(result) > 0;
    });
  }

  deleteByThread(threadId: string, scope: OwnerScope = {}): Promise<number> {
    return this.wrap("delete a thread's runs", async () => {
      const result = await this.db
        .deleteFrom("runs")
        .where("thread_id", "=", threadId)
        .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
        .executeTakeFirst();
      return changed(result);
    });
  }

  async close(): Promise<void> {
    if (this.options.ownsDatabase === true) await this.database.close();
  }

  private async cancelActionOf(runId: string): Promise<CancelAction | null> {
    const record = await this.db
      .selectFrom("runs")
      .select("cancel_action")
      .where("run_id", "=", runId)
      .executeTakeFirst();
    return isCancelAction(record?.cancel_action) ? record.cancel_action : null;
  }
}
