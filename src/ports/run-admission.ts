import { ConflictError, UnsupportedStrategyError } from "../core/errors.js";
import type { AdmissionOptions } from "./run-store.js";
import { MULTITASK_STRATEGIES, type RunRow } from "./run-types.js";

/** The error of every row an interrupting admission supersedes. */
export const CANCELLED_BY_NEWER_RUN = "Cancelled by newer run";

/** What an admission does besides inserting its row. */
export interface AdmissionPlan {
  /** The new row waits behind the thread's active run (`enqueue` on a busy thread). */
  queued: boolean;
  /** Rows to move to `interrupted` in the same atomic step, in the order they were given. */
  interrupt: RunRow[];
}

/** Checked before anything is read: an unknown strategy never reaches a store's tables. */
export function assertKnownStrategy(strategy: AdmissionOptions["strategy"]): void {
  if (!MULTITASK_STRATEGIES.includes(strategy)) {
    throw new UnsupportedStrategyError(String(strategy));
  }
}

export function runExistsError(runId: string): ConflictError {
  return new ConflictError(`Run ${runId} already exists.`);
}

export function busyThreadError(threadId: string): ConflictError {
  return new ConflictError(
    `Thread ${threadId} already has an active run; wait for it or use multitask_strategy interrupt.`,
  );
}

/**
 * The multitask rule of `RunStore.createThreadOperation`, decided over the thread's active rows
 * (pending or running, queued or not). Stores differ only in how they read those rows, tell a
 * live lease (`leaseIsLive`, the same test their takeover claims make) and write the plan.
 * Throws `ConflictError` when the admission must change nothing.
 */
export function planAdmission(
  active: readonly RunRow[],
  options: AdmissionOptions,
  leaseIsLive: (row: RunRow) => boolean,
): AdmissionPlan {
  const slotHolders = active.filter((row) => !row.queued);
  switch (options.strategy) {
    case "reject": {
      const [holder] = slotHolders;
      if (holder !== undefined) throw busyThreadError(holder.thread_id);
      return { queued: false, interrupt: [] };
    }
    case "enqueue":
      // Waiting rows count as busy too, so an enqueued run never overtakes an earlier one.
      return { queued: active.length > 0, interrupt: [] };
    case "interrupt":
    case "rollback":
      assertInterruptible(slotHolders, options, leaseIsLive);
      // The newer run supersedes waiting runs too: they would otherwise start after it.
      return { queued: false, interrupt: [...active] };
  }
}

/**
 * interrupt/rollback may not touch a peer's live execution, nor an unexpired internal reservation.
 * Only slot holders execute; queued rows wait and carry no execution to protect.
 */
function assertInterruptible(
  slotHolders: readonly RunRow[],
  options: AdmissionOptions,
  leaseIsLive: (row: RunRow) => boolean,
): void {
  for (const row of slotHolders) {
    const live = leaseIsLive(row);
    if (live && row.owner_worker_id !== options.workerId) {
      throw new ConflictError(
        `Run ${row.run_id} on thread ${row.thread_id} is owned by a live worker; retry later.`,
      );
    }
    if (row.operation_kind !== "run" && (live || row.lease_expires_at === null)) {
      throw new ConflictError(
        `Thread ${row.thread_id} has an active ${row.operation_kind} operation; retry later.`,
      );
    }
  }
}

/** The columns an interrupting admission writes on each row it supersedes; it leaves the queue. */
export function supersededBy(
  options: AdmissionOptions,
): Pick<RunRow, "status" | "error" | "owner_worker_id" | "queued" | "updated_at"> {
  return {
    status: "interrupted",
    error: CANCELLED_BY_NEWER_RUN,
    owner_worker_id: options.workerId,
    queued: false,
    updated_at: options.now,
  };
}
