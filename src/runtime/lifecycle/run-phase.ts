import { FawnError } from "../../core/errors.js";
import type { RunRow, RunStatus } from "../../ports/run-types.js";

/** A status a run ends in. */
export type TerminalStatus = Exclude<RunStatus, "pending" | "running">;

export function isTerminal(status: RunStatus): status is TerminalStatus {
  return status !== "pending" && status !== "running";
}

/** Proof that a terminal status write was attributably acknowledged to this manager. */
export interface TerminalCommitProof {
  status: TerminalStatus;
}

/**
 * Where a local run stands in the terminal-commit protocol; see docs/ARCHITECTURE.md "Run phases".
 * `proof` is the last terminal status the store attributably acknowledged to this manager; a
 * later outcome may be staged on top of it (a rollback after a committed interrupt).
 */
export type RunPhase =
  /** An `enqueue` run waiting behind the thread's active run. */
  | { readonly kind: "queued" }
  /** Admitted; holds the thread's active slot, the worker has not started it yet. */
  | { readonly kind: "pending" }
  | { readonly kind: "running" }
  /** A terminal outcome decided locally and not committed yet (`restoring`: a rollback is under way). */
  | {
      readonly kind: "staged";
      readonly outcome: TerminalStatus;
      readonly proof: TerminalCommitProof | null;
      readonly restoring: boolean;
    }
  /** A terminal status applied locally; written to the store (`proof` when the write was ours). */
  | {
      readonly kind: "settled";
      readonly status: TerminalStatus;
      readonly proof: TerminalCommitProof | null;
    }
  /** Ownership lost: this process makes no further durable writes for the run. */
  | { readonly kind: "fenced"; readonly reason: string; readonly proof: TerminalCommitProof | null }
  /** Hydrated from the store for observation only; never executed or written here. */
  | { readonly kind: "observed"; readonly status: RunStatus };

export type RunPhaseKind = RunPhase["kind"];

export const RUN_PHASE_KINDS: readonly RunPhaseKind[] = [
  "queued",
  "pending",
  "running",
  "staged",
  "settled",
  "fenced",
  "observed",
];

/**
 * Every allowed phase change, in one place. Any live phase may stage an outcome, settle a status
 * or be fenced; a staged or settled run may stage or settle again (a later outcome, a re-commit);
 * fenced and observed runs never change.
 */
export const PHASE_TRANSITIONS: Readonly<Record<RunPhaseKind, readonly RunPhaseKind[]>> = {
  queued: ["pending", "staged", "settled", "fenced"],
  pending: ["running", "staged", "settled", "fenced"],
  running: ["staged", "settled", "fenced"],
  staged: ["staged", "settled", "fenced"],
  settled: ["staged", "settled", "fenced"],
  fenced: [],
  observed: [],
};

export function isLegalTransition(from: RunPhaseKind, to: RunPhaseKind): boolean {
  return PHASE_TRANSITIONS[from].includes(to);
}

/** The one way a phase changes: `next`, or an internal error for a change the table forbids. */
export function transition(from: RunPhase, next: RunPhase): RunPhase {
  if (!isLegalTransition(from.kind, next.kind)) {
    throw new FawnError("internal", `Illegal run phase transition ${from.kind} → ${next.kind}.`);
  }
  return next;
}

/** The LangGraph-visible status a phase stands for. */
export function phaseStatus(phase: RunPhase): RunStatus {
  switch (phase.kind) {
    case "queued":
    case "pending":
      return "pending";
    case "running":
      return "running";
    case "staged":
      return phase.outcome;
    case "settled":
    case "observed":
      return phase.status;
    case "fenced":
      return "error";
  }
}

export function phaseProof(phase: RunPhase): TerminalCommitProof | null {
  return phase.kind === "staged" || phase.kind === "settled" || phase.kind === "fenced"
    ? phase.proof
    : null;
}

/** The phase a row read from the store starts in. */
export function phaseOfRow(row: RunRow, observed: boolean): RunPhase {
  if (observed) return { kind: "observed", status: row.status };
  if (isTerminal(row.status)) return { kind: "settled", status: row.status, proof: null };
  if (row.status === "running") return { kind: "running" };
  return row.queued ? { kind: "queued" } : { kind: "pending" };
}
