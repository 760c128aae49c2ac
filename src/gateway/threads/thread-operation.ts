import { ConflictError, isFawnError } from "../../core/errors.js";
import type { RunStore } from "../../ports/run-store.js";
import type { RunManager } from "../../runtime/run-manager.js";

export type ThreadOperationKind = "delete" | "checkpoint_write" | "artifact_write";

export interface ThreadOperationDeps {
  manager: Pick<RunManager, "createOrReject" | "setStatus" | "forget">;
  runs: Pick<RunStore, "delete">;
}

/**
 * Run `work` while holding the thread's one active slot, as a short non-run operation: the store
 * refuses it (409) while a run is pending or running on the thread, in this process or another,
 * and refuses new runs while it is held. The reservation row is transient and removed afterwards.
 */
export async function withThreadOperation<T>(
  deps: ThreadOperationDeps,
  threadId: string,
  userId: string,
  kind: ThreadOperationKind,
  work: () => Promise<T>,
): Promise<T> {
  let operationId: string;
  try {
    const record = await deps.manager.createOrReject(threadId, {
      operationKind: kind,
      multitaskStrategy: "reject",
      userId,
    });
    operationId = record.runId;
  } catch (error) {
    if (isFawnError(error) && error.status === 409) {
      throw new ConflictError(
        `Thread ${threadId} has work in flight (a run or another operation); wait for it or cancel it, then retry.`,
        { cause: error },
      );
    }
    throw error;
  }
  try {
    return await work();
  } finally {
    // Finished locally without a status write (the row is removed next), so nothing is resurrected.
    await deps.manager.setStatus(operationId, "success", { persist: false });
    deps.manager.forget(operationId);
    await deps.runs.delete(operationId).catch(() => undefined);
  }
}
