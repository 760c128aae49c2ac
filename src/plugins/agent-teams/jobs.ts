import {
  type Artifact,
  type ArtifactImport,
  identity,
  isTerminal,
  type Job,
  type JobStatus,
  now,
  type Team,
} from "./model.js";

/*
 * Job bookkeeping inside one `change` transaction: creating requests, finishing jobs (with the
 * receipt back to the sender), and the frozen input a member run starts from.
 */

export const INPUT_PREFIX = "Team collaboration request.";
const KEEP_MESSAGES = 100;

export function findJob(team: Team, jobId: string): Job {
  const job = team.jobs.find((j) => j.id === jobId);
  if (job === undefined) throw new Error("Job unavailable: no such job in this team.");
  return job;
}

export function newJob(fields: {
  id: string;
  root: string;
  parent_id: string | null;
  member_id: string;
  thread_id: string;
  source: string | null;
  kind: Job["kind"];
  request_id: string;
  text: string;
  artifacts: Job["artifacts"];
}): Job {
  return {
    ...fields,
    status: "queued",
    result: null,
    error: null,
    input: null,
    run_id: null,
    run_key: null,
    initial_run_id: null,
    resume: null,
    waiting: null,
    clarification: null,
    artifact_imports: [],
    execution_key: null,
    created_at: now(),
    completed_at: null,
  };
}

/**
 * Ends a job once (a terminal job is left alone): result or error, a shared message, a receipt
 * job back to the sender's thread for a peer request, and — unless it completed, when the
 * capture decides — its still-pending artifacts marked failed.
 */
export function finishJob(
  team: Team,
  jobId: string,
  status: Extract<JobStatus, "completed" | "failed" | "cancelled">,
  result: string | null,
  error: string | null,
): void {
  const job = findJob(team, jobId);
  if (isTerminal(job)) return;
  job.status = status;
  job.result = result;
  job.error = status === "completed" ? null : error;
  job.resume = null;
  job.completed_at = now();
  const member = team.members.find((m) => m.id === job.member_id);
  team.messages.push({
    job_id: job.id,
    member_id: job.member_id,
    status,
    text: (status === "completed" ? result : error) ?? "",
    at: now(),
  });
  team.messages = team.messages.slice(-KEEP_MESSAGES);
  if (status !== "completed") {
    for (const artifact of pendingArtifacts(team, job.id)) {
      artifact.status = "failed";
      artifact.error = `The producing job ended ${status}.`;
    }
  }
  if (job.kind !== "request" || job.source === null || status === "cancelled") return;
  const sender = team.members.find((m) => m.thread_id === job.source);
  if (sender === undefined) return;
  const id = identity(job.id, "receipt");
  if (team.jobs.some((j) => j.id === id)) return;
  team.jobs.push(
    newJob({
      id,
      root: job.root,
      parent_id: job.id,
      member_id: sender.id,
      thread_id: sender.thread_id,
      source: null,
      kind: "receipt",
      request_id: job.request_id,
      text: JSON.stringify({
        request_id: job.request_id,
        from_member: member?.name ?? job.member_id,
        status,
        result: status === "completed" ? result : error,
      }),
      artifacts: [],
    }),
  );
}

export const pendingArtifacts = (team: Team, jobId: string): Artifact[] =>
  team.artifacts.filter((a) => a.status === "pending" && a.source.job_id === jobId);

/** The one user message a job's first run starts from (the prefix is part of the contract). */
export function frozenInput(
  team: Team,
  job: Job,
  imports: ArtifactImport[],
): Record<string, unknown> {
  const member = team.members.find((m) => m.id === job.member_id);
  const files = imports.map((i) => {
    const artifact = team.artifacts.find(
      (a) => a.artifact_id === i.artifact_id && a.version === i.version,
    );
    return { name: artifact?.name ?? i.receipt.filename, path: i.receipt.path };
  });
  const payload = {
    request: job.text,
    your_member_id: job.member_id,
    source_thread: job.source,
    kind: job.kind,
    team_id: team.id,
    goal: team.goal,
    members: team.members.map((m) => ({ id: m.id, name: m.name, agent: m.agent })),
    messages: team.messages.slice(-8),
    files,
  };
  const guidance =
    job.kind === "receipt"
      ? "A teammate answered a request you sent; use it to continue your work."
      : `You are ${member?.name ?? "a member"} of team "${team.name}". Answer the request below; attached files are in your uploads.`;
  return {
    messages: [
      {
        role: "user",
        id: `team-${job.id}`,
        content: `${INPUT_PREFIX} ${guidance}\n\n${JSON.stringify(payload)}`,
      },
    ],
  };
}
