import { OwnershipLostError } from "../core/errors.js";

/**
 * A fencing token on a run's writes: commit only while the run's durable row still names
 * `workerId` as its owner (`owner_worker_id`). A takeover (`claimForTakeover`, an interrupting
 * admission, `claimUnsealedTerminal`) changes the owner in the same store, so every fenced write
 * of the previous owner fails from then on — including one from a process that was paused and
 * wakes up not knowing. The store checks it inside the write's own statement or transaction.
 */
export interface WriteFence {
  runId: string;
  workerId: string;
}

/** Write options of every fenced call. */
export interface FencedWrite {
  fence?: WriteFence;
}

/**
 * Who owns a run, read synchronously by a process-local store (memory, JSONL) under the same lock
 * as its write: the paired run store. `undefined` means no such run row.
 */
export interface RunOwnership {
  ownerOf(runId: string): string | null | undefined;
}

export function ownershipLost(fence: WriteFence, what: string): OwnershipLostError {
  return new OwnershipLostError(
    `Refused to ${what} for run ${fence.runId}: worker ${fence.workerId} no longer owns it.`,
  );
}

/** Throws when a process-local store's owner check fails. No ownership source: nothing to check. */
export function assertFence(
  owners: RunOwnership | undefined,
  fence: WriteFence | undefined,
  what: string,
): void {
  if (!fence || !owners) return;
  if (owners.ownerOf(fence.runId) !== fence.workerId) throw ownershipLost(fence, what);
}
