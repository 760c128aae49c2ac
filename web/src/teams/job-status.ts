import type { TeamsMessageKey } from "../i18n/messages/teams.js";
import type { JobStatus } from "./team-types.js";

/** How each job status reads (its catalog key) and what the user may do with a job in it. */
const LABELS: Record<JobStatus, TeamsMessageKey> = {
  queued: "statusQueued",
  running: "statusRunning",
  waiting_input: "statusWaitingInput",
  resuming: "statusResuming",
  cancelling: "statusCancelling",
  cancelled: "statusCancelled",
  completed: "statusCompleted",
  failed: "statusFailed",
};

const TERMINAL: ReadonlySet<JobStatus> = new Set(["cancelled", "completed", "failed"]);

export function statusLabelKey(status: JobStatus): TeamsMessageKey {
  return LABELS[status];
}

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL.has(status);
}

/** Cancel is offered until the job ends or a cancel is already under way. */
export function canCancel(status: JobStatus): boolean {
  return !isTerminal(status) && status !== "cancelling";
}
