import { createHash } from "node:crypto";
import type { ArtifactReceipt } from "../../extensions/api/index.js";

/*
 * The persisted shape of a team: one JSON document per team (snake_case, as the actions speak),
 * plus artifact bytes stored beside it. `input`, `resume` and receipts never leave the plugin.
 */

export const NAMESPACE = "community.agent-teams";

export type JobStatus =
  | "queued"
  | "running"
  | "waiting_input"
  | "resuming"
  | "cancelling"
  | "completed"
  | "failed"
  | "cancelled";

export const TERMINAL: ReadonlySet<JobStatus> = new Set(["completed", "failed", "cancelled"]);

export interface Member {
  id: string;
  name: string;
  agent: string;
  thread_id: string;
}

export interface ArtifactRef {
  artifact_id: string;
  version: number;
}

/** A completed import into the job's thread: which artifact version, and the host's receipt. */
export interface ArtifactImport extends ArtifactRef {
  receipt: ArtifactReceipt;
}

export interface Clarification {
  question: string;
  request_id: string;
  message_id: string | null;
}

export interface Resume {
  response: unknown;
  key: string;
  /** Set for a clarification answer: the user message the continuation starts with. */
  input: Record<string, unknown> | null;
}

export interface Job {
  id: string;
  root: string;
  parent_id: string | null;
  member_id: string;
  thread_id: string;
  source: string | null;
  kind: "request" | "receipt";
  request_id: string;
  text: string;
  status: JobStatus;
  result: string | null;
  error: string | null;
  input: Record<string, unknown> | null;
  run_id: string | null;
  /** The admission key `run_id` was acknowledged for (the first key or a resume key). */
  run_key: string | null;
  initial_run_id: string | null;
  resume: Resume | null;
  /** Why the job waits: a graph interrupt or an ask_clarification question. */
  waiting: "interrupt" | "clarification" | null;
  clarification: Clarification | null;
  artifacts: ArtifactRef[];
  artifact_imports: ArtifactImport[];
  /** The idempotency key of the admission executing now: the job id, or a resume key. */
  execution_key: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface ArtifactSource {
  run_id: string;
  job_id: string;
  member_id: string;
  thread_id: string;
}

export interface Artifact extends ArtifactRef {
  name: string;
  path: string;
  status: "pending" | "ready" | "failed";
  error: string | null;
  sha256: string | null;
  size: number | null;
  request_id: string;
  /** identity(team, caller thread, request_id): a repeated registration returns this entry. */
  registration: string;
  source: ArtifactSource;
  created_at: string;
}

export interface SharedMessage {
  job_id: string;
  member_id: string;
  status: JobStatus;
  text: string;
  at: string;
}

export interface Team {
  id: string;
  name: string;
  goal: string;
  request_id: string;
  members: Member[];
  messages: SharedMessage[];
  jobs: Job[];
  artifacts: Artifact[];
  ready: boolean;
  created_at: string;
}

/**
 * A stable id from its parts: sha256 of the Python `json.dumps(parts)` form (", " separators,
 * non-ASCII escaped), first 32 hex digits — so ids match data written by the reference plugin.
 */
export function identity(...parts: Array<string | null>): string {
  const json = `[${parts.map((part) => (part === null ? "null" : asciiJson(part))).join(", ")}]`;
  return createHash("sha256").update(json).digest("hex").slice(0, 32);
}

function asciiJson(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export const isTerminal = (job: Job): boolean => TERMINAL.has(job.status);

export const now = (): string => new Date().toISOString();
