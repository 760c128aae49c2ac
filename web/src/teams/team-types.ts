/** What the agent-teams plugin's actions answer (its `get` projection, `list`, `send`). */

export type JobStatus =
  | "queued"
  | "running"
  | "waiting_input"
  | "resuming"
  | "cancelling"
  | "cancelled"
  | "completed"
  | "failed";

export interface TeamMember {
  id: string;
  name: string;
  agent: string;
  thread_id: string;
}

export interface Clarification {
  question: string;
  options?: string[];
}

export interface ArtifactRef {
  artifact_id: string;
  version: number;
}

export interface TeamJob {
  id: string;
  member_id: string;
  thread_id: string;
  kind: "request" | "receipt";
  text: string;
  status: JobStatus;
  result: string | null;
  error: string | null;
  run_id: string | null;
  clarification?: Clarification | null;
  artifacts?: ArtifactRef[];
  created_at?: string;
}

export interface TeamArtifact {
  artifact_id: string;
  version: number;
  name: string;
  path: string;
  status: "pending" | "ready" | "failed";
  error?: string | null;
  sha256?: string;
  size?: number;
  source: { run_id: string | null; job_id: string; member_id: string; thread_id: string };
}

export interface TeamMessage {
  id?: string;
  member_id?: string;
  from?: string;
  text?: string;
  status?: string;
}

export interface Team {
  id: string;
  name: string;
  goal: string;
  ready: boolean;
  members: TeamMember[];
  jobs: TeamJob[];
  total_jobs?: number;
  messages?: TeamMessage[];
  artifacts?: TeamArtifact[];
  revision: string;
}

export interface TeamSummary {
  id: string;
  name: string;
  members: TeamMember[];
  ready: boolean;
}

export type TeamAnswer = Team | { unchanged: true; revision: string };

export interface NewMember {
  name: string;
  agent: string;
}
