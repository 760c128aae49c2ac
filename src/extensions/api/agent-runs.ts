import type { AgentRunError } from "../../core/errors.js";

/*
 * What a plugin may do with agent runs, on behalf of one user: the `AgentRuns` handle. The host
 * (`src/gateway/extensions/`) implements it over the real run runtime; tests implement it with an
 * in-memory double. Every failure is an `AgentRunError(status, message)`.
 */

export type { AgentRunError };

/** A host run status (the LangGraph vocabulary). */
export type AgentRunStatus =
  | "pending"
  | "running"
  | "success"
  | "error"
  | "timeout"
  | "interrupted";

/** One run as a plugin sees it. */
export interface AgentRun {
  threadId: string;
  runId: string;
  status: AgentRunStatus;
  assistantId: string | null;
  /** Why the run stopped, when the host recorded a reason (e.g. `artifact_conflict`). */
  stopReason: string | null;
}

/** A thread's head state: what `getState` answers (an empty thread has no checkpoint yet). */
export interface AgentThreadState {
  /** The graph's state values (`messages`, …), JSON. */
  values: Record<string, unknown>;
  /** Nodes that would run next: non-empty while the thread waits on an interrupt. */
  next: string[];
  /** Pending interrupts' values. */
  interrupts: unknown[];
  /** The head checkpoint, null for a thread that has none. */
  checkpointId: string | null;
}

/**
 * Proof that the host wrote a file into a thread's uploads: the stored name (which may differ from
 * the requested one), its sandbox path, and the digest and size of the bytes written. A run started
 * with receipts verifies each still matches before its agent is built.
 */
export interface ArtifactReceipt {
  filename: string;
  /** `/mnt/user-data/uploads/<filename>`. */
  path: string;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  size: number;
}

export interface CreateThreadArgs {
  /** Default `lead_agent`. */
  assistantId?: string;
  /** Idempotent for the caller's own thread of that id. */
  threadId?: string;
  metadata?: Record<string, unknown>;
}

export interface StartRunArgs {
  threadId: string;
  /** The graph input, e.g. `{messages: [{role: "user", content: "…"}]}`. */
  input: Record<string, unknown>;
  context?: Record<string, unknown>;
  /** Kept in the plugin's namespace: the same key returns the same run. */
  idempotencyKey?: string;
  /** Files imported into this thread that must be unchanged when the run starts. */
  artifactImports?: ArtifactReceipt[];
}

export interface ResumeRunArgs {
  threadId: string;
  /** The answer to the thread's pending interrupt (required). */
  resume: unknown;
  idempotencyKey?: string;
}

export interface RunRef {
  threadId: string;
  runId: string;
}

export interface WaitRunArgs extends RunRef {
  /** Default 60, at most 3600. */
  timeoutSeconds?: number;
}

export interface ImportArtifactArgs {
  threadId: string;
  filename: string;
  content: Uint8Array;
  /** Aborts the copy (the host stops at its next step and leaves no partial file). */
  signal?: AbortSignal;
}

export interface ReadArtifactArgs {
  threadId: string;
  /** A sandbox path under `/mnt/user-data/outputs/` (or `uploads/`). */
  path: string;
  /** Aborts the read. */
  signal?: AbortSignal;
}

export interface ValidateArtifactSourceArgs {
  threadId: string;
  /** Null when the plugin lost the admission's acknowledgement: the key alone names the run. */
  runId: string | null;
  /** The plugin's own key of the admission that is executing. */
  idempotencyKey: string;
}

export interface AgentRuns {
  /**
   * This handle bound to a plugin namespace: keys become `extension:<namespace>:<key>` and runs are
   * stamped with the plugin as their origin. The same namespace on a bound handle returns the same
   * object; another namespace is refused (422).
   */
  forPlugin(namespace: string): AgentRuns;
  createThread(args?: CreateThreadArgs): Promise<string>;
  start(args: StartRunArgs): Promise<AgentRun>;
  resume(args: ResumeRunArgs): Promise<AgentRun>;
  get(args: RunRef): Promise<AgentRun>;
  getState(args: { threadId: string }): Promise<AgentThreadState>;
  /** Resolves once the run is no longer pending or running; rejects with a timeout error. */
  wait(args: WaitRunArgs): Promise<AgentRun>;
  cancel(args: RunRef): Promise<void>;
  importArtifact(args: ImportArtifactArgs): Promise<ArtifactReceipt>;
  readArtifact(args: ReadArtifactArgs): Promise<Uint8Array>;
  /**
   * Proves `(threadId, runId)` is executing now as this plugin's admission under `idempotencyKey`
   * (and that the thread's sandbox can hand files over); the error message says "executing".
   */
  validateArtifactSource(args: ValidateArtifactSourceArgs): Promise<AgentRun>;
}
