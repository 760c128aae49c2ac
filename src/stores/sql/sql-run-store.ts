import { runUrgent } from "../../core/async/urgency.js";
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
} from "../../ports/run-types.js";
import type { FencedWrite } from "../../ports/write-fence.js";
import { admissionLockQuery } from "./advisory-locks.js";
import { type RunsInsert, type RunsRecord, runRowFromDb, runRowToDb } from "./run-row-codec.js";
import { isUniqueViolation, toStoreError } from "./sql-errors.js";
import { admitThreadOperation } from "./sql-run-admission.js";
import type { ExpiredLeaseScan } from "./sql-run-recovery.js";
import * as recovery from "./sql-run-recovery.js";
import * as writes from "./sql-run-writes.js";
import { SqlStore } from "./sql-store.js";
import { sqlStatement, sqlWordList } from "./sql-text.js";

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
  where holder.thread_id = ? and holder.status in ${sqlWordList(ACTIVE_RUN_STATUSES)} and holder.queued = ?
)
returning *`;

/**
 * Durable run rows over Kysely (SQLite or PostgreSQL). Admission is in sql-run-admission.ts, the
 * guarded writes in sql-run-writes.ts, the recovery scans and claims in sql-run-recovery.ts; this
 * class holds the reads, snapshots and deletes and gives every call its store-error boundary.
 */
export class SqlRunStore extends SqlStore implements RunStore {
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
    return this.wrap("update a run's status", () =>
      writes.updateStatus(this.database, runId, status, update, this.now()),
    );
  }

  startRun(runId: string, now: string, options: FencedWrite = {}): Promise<boolean> {
    return this.wrap("start a run", () => writes.startRun(this.database, runId, now, options));
  }

  finalizeIfNotCancelled(
    runId: string,
    status: RunStatus,
    update: StatusUpdate = {},
  ): Promise<FinalizeResult> {
    return this.wrap("finalize a run", () =>
      writes.finalizeIfNotCancelled(this.database, runId, status, update, this.now()),
    );
  }

  requestCancel(runId: string, action: CancelAction, now: string): Promise<CancelAction | null> {
    if (!isCancelAction(action)) {
      return Promise.reject(
        new ValidationError(
          `Invalid cancel action "${String(action)}"; use interrupt or rollback.`,
        ),
      );
    }
    return this.wrap("request a run's cancellation", () =>
      writes.requestCancel(this.database, runId, action, now),
    );
  }

  renewLease(runId: string, ownerWorkerId: string, leaseExpiresAt: string): Promise<LeaseRenewal> {
    return this.wrap("renew a run's lease", () =>
      writes.renewLease(this.database, runId, ownerWorkerId, leaseExpiresAt, this.now()),
    );
  }

  claimForTakeover(runId: string, claim: TakeoverClaim): Promise<boolean> {
    return this.wrap("take over a run", () => recovery.claimForTakeover(this.db, runId, claim));
  }

  listUnsealedTerminalWithExpiredLease(scan: ExpiredLeaseScan): Promise<RunRow[]> {
    return this.wrap("list unsealed finished runs", () =>
      recovery.listUnsealedTerminalWithExpiredLease(this.db, scan),
    );
  }

  claimUnsealedTerminal(
    runId: string,
    claim: { now: string; graceSeconds: number; workerId: string; error: string },
  ): Promise<boolean> {
    return this.wrap("claim an unsealed finished run", () =>
      recovery.claimUnsealedTerminal(this.db, runId, claim),
    );
  }

  listInflightWithExpiredLease(scan: ExpiredLeaseScan): Promise<RunRow[]> {
    return this.wrap("list runs with expired leases", () =>
      recovery.listInflightWithExpiredLease(this.db, scan),
    );
  }

  updateRunCompletion(
    runId: string,
    status: RunStatus,
    completion: Partial<RunCompletionData> & StatusUpdate,
  ): Promise<boolean> {
    return this.wrap("record a run's completion", () =>
      writes.updateRunCompletion(this.database, runId, status, completion, this.now()),
    );
  }

  updateRunProgress(
    runId: string,
    progress: Partial<RunCompletionData>,
    options: FencedWrite = {},
  ): Promise<void> {
    return this.wrap("record a run's progress", () =>
      writes.updateRunProgress(this.database, runId, progress, options, this.now()),
    );
  }

  updateModelName(runId: string, modelName: string, options: FencedWrite = {}): Promise<void> {
    return this.wrap("record a run's model", () =>
      writes.updateModelName(this.database, runId, modelName, options, this.now()),
    );
  }

  updateEvidenceSeal(
    runId: string,
    seal: EvidenceSeal,
    options: FencedWrite = {},
  ): Promise<boolean> {
    return this.wrap("seal a run's evidence", () =>
      writes.updateEvidenceSeal(this.database, runId, seal, options, this.now()),
    );
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
      return result.numDeletedRows > 0n;
    });
  }

  deleteByThread(threadId: string, scope: OwnerScope = {}): Promise<number> {
    return this.wrap("delete a thread's runs", async () => {
      const result = await this.db
        .deleteFrom("runs")
        .where("thread_id", "=", threadId)
        .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
