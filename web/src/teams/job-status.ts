import type { JobStatus } from "./team-types.js";

/** How each job status reads and what the user may do with a job in it. */
const LABELS: Record<JobStatus, string> = {
  queued: "queued",
  running: "running",
  waiting_input: "needs input",
  resuming: "resuming",
  cancelling: "cancelling",
  cancelled: "cancelled",
  completed: "completed",
  failed: "failed",
};

const TERMINAL: ReadonlySet<JobStatus> = new Set(["cancelled", "completed", "failed"]);

export function statusLabel(status: JobStatus): string {
  return LABELS[status] ?? status;
}

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL.has(status);
}

/** Cancel is offered until the job ends or a cancel is already under way. */
export function canCancel(status: JobStatus): boolean {
  return !isTerminal(status) && status !== "cancelling";
}
