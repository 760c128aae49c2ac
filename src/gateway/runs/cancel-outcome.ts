import { ConflictError, NotFoundError } from "../../core/errors.js";
import { type CancelOutcome, isTerminalStatus, type RunRow } from "../../ports/run-types.js";

/**
 * What a `CancelOutcome` means to the caller. Returns for outcomes that count as accepted
 * (`cancelled`, `requested`, `taken_over`); throws the 404/409 for the others.
 */
export function mapCancelOutcome(
  outcome: CancelOutcome,
  runId: string,
  row: RunRow | null,
  leaseSeconds: number,
): void {
  switch (outcome) {
    case "cancelled":
    case "requested":
    case "taken_over":
      return;
    case "not_cancellable":
      throw notCancellable(runId, row);
    case "lease_valid_elsewhere":
      throw new ConflictError(
        `Run ${runId} is owned by another live server process; retry shortly.`,
        {
          details: { retry_after_seconds: Math.max(1, Math.ceil(leaseSeconds)) },
        },
      );
    case "not_active_locally":
      if (row && isTerminalStatus(row.status)) throw notCancellable(runId, row);
      throw new ConflictError(
        `Run ${runId} is executing on another server process; cancel it there, or enable runtime.heartbeat_enabled for cross-process cancellation.`,
      );
    case "unknown":
      if (!row) throw new NotFoundError(`Run ${runId} not found.`);
      throw new ConflictError(`Run ${runId} could not be cancelled right now; retry shortly.`);
  }
}

function notCancellable(runId: string, row: RunRow | null): ConflictError {
  return new ConflictError(
    `Run ${runId} is not cancellable (status: ${row?.status ?? "unknown"}).`,
  );
}
