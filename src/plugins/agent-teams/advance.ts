import { basename } from "node:path";
import { type AgentRun, AgentRunError, type AgentRuns } from "../../extensions/api/index.js";
import { captureArtifacts, getStateOrEmpty } from "./capture.js";
import { transfer, underPoll } from "./deadline.js";
import { findJob, finishJob, frozenInput } from "./jobs.js";
import { attribute, trailingClarification, waitsOnInterrupt } from "./messages.js";
import { isTerminal, type Job } from "./model.js";
import { type TeamsStore, WithContents } from "./store.js";

/*
 * One pass over one job, under the worker's poll deadline. Every host call is preceded and
 * followed by a persisted step, so a peer taking over after a crash repeats at most the call in
 * flight, with the same idempotency key: imports before freezing the input, each receipt saved as
 * it arrives, the input frozen before admission, the run id saved after it.
 */

export interface JobPass {
  store: TeamsStore;
  owner: string;
  teamId: string;
  jobId: string;
  runs: AgentRuns;
}

/** An import or an admission with imports was refused: the job fails, naming the file copy. */
export class ArtifactCopyError extends Error {}

const ACTIVE = new Set(["pending", "running"]);

export async function advanceJob(pass: JobPass): Promise<void> {
  const { store, owner, teamId, jobId, runs } = pass;
  const change = <T>(update: (job: Job) => T) =>
    store.change(owner, teamId, (team) => update(findJob(team, jobId)));
  let team = await underPoll(() => store.get(owner, teamId));
  let job = findJob(team, jobId);
  if (isTerminal(job) || job.status === "waiting_input") return;

  if (job.input === null) {
    if (job.status === "cancelling") {
      await store.change(owner, teamId, (t) =>
        finishJob(t, jobId, "cancelled", null, "Cancelled."),
      );
      return;
    }
    const state = await getStateOrEmpty(runs, job.thread_id);
    if (waitsOnInterrupt(state)) return;
    for (const ref of job.artifacts) {
      const done = job.artifact_imports.some(
        (i) => i.artifact_id === ref.artifact_id && i.version === ref.version,
      );
      if (done) continue;
      const { artifact, content } = await underPoll(() =>
        store.artifact(owner, teamId, ref.artifact_id, ref.version),
      );
      const receipt = await copying(() =>
        transfer((args) => runs.importArtifact(args), {
          threadId: job.thread_id,
          filename: basename(artifact.path),
          content,
        }),
      );
      job = await change((j) => {
        j.artifact_imports.push({ ...ref, receipt });
        return structuredClone(j);
      });
    }
    team = await underPoll(() => store.get(owner, teamId));
    const input = frozenInput(team, findJob(team, jobId), job.artifact_imports);
    job = await change((j) => {
      j.input ??= input;
      j.execution_key ??= j.id;
      return structuredClone(j);
    });
  }

  if (job.run_id === null && job.status === "cancelling") {
    // Never admitted as far as we know: nothing to stop (a lost ack leaves the host run alone).
    await store.change(owner, teamId, (t) => finishJob(t, jobId, "cancelled", null, "Cancelled."));
    return;
  }
  if (job.run_id === null && job.status !== "resuming") {
    const frozen = job.input;
    if (frozen === null) return;
    const receipts = job.artifact_imports.map((i) => i.receipt);
    const admit = () =>
      underPoll(() =>
        runs.start({
          threadId: job.thread_id,
          input: frozen,
          idempotencyKey: job.id,
          ...(receipts.length > 0 ? { artifactImports: receipts } : {}),
        }),
      );
    const run = receipts.length > 0 ? await copying(admit) : await admit();
    job = await change((j) => {
      j.run_id = run.runId;
      j.run_key = j.id;
      j.initial_run_id ??= run.runId;
      j.execution_key = j.id;
      if (j.status === "queued") j.status = "running";
      return structuredClone(j);
    });
  }

  if (job.status === "resuming" && job.resume !== null) {
    const resume = job.resume;
    const run: AgentRun =
      resume.input !== null
        ? await underPoll(() =>
            runs.start({
              threadId: job.thread_id,
              input: resume.input ?? {},
              idempotencyKey: resume.key,
            }),
          )
        : await underPoll(() =>
            runs.resume({
              threadId: job.thread_id,
              resume: resume.response,
              idempotencyKey: resume.key,
            }),
          );
    job = await change((j) => {
      if (j.status !== "resuming") return structuredClone(j);
      j.run_id = run.runId;
      j.run_key = resume.key;
      j.execution_key = resume.key;
      j.resume = null;
      j.waiting = null;
      j.clarification = null;
      j.status = "running";
      return structuredClone(j);
    });
  }

  const runId = job.run_id;
  if (runId === null) return;
  const run = await underPoll(() => runs.get({ threadId: job.thread_id, runId }));
  if (job.status === "cancelling") {
    if (ACTIVE.has(run.status)) {
      await underPoll(() => runs.cancel({ threadId: job.thread_id, runId }));
      return;
    }
    await store.change(owner, teamId, (t) =>
      finishJob(t, jobId, "cancelled", null, "Cancelled; the member's checkpoint is retained."),
    );
    return;
  }
  if (ACTIVE.has(run.status)) return;
  await conclude(pass, job, run);
}

/** The run ended: wait for input, fail, or complete (capturing the job's files first). */
async function conclude(pass: JobPass, job: Job, run: AgentRun): Promise<void> {
  const { store, owner, teamId, jobId, runs } = pass;
  const state = await getStateOrEmpty(runs, job.thread_id);
  if (waitsOnInterrupt(state)) {
    await store.change(owner, teamId, (t) => {
      const j = findJob(t, jobId);
      if (j.status !== "running") return;
      j.status = "waiting_input";
      j.waiting = "interrupt";
    });
    return;
  }
  const clarification = trailingClarification(state);
  if (clarification !== null && run.status === "success") {
    await store.change(owner, teamId, (t) => {
      const j = findJob(t, jobId);
      if (j.status !== "running") return;
      j.status = "waiting_input";
      j.waiting = "clarification";
      j.clarification = clarification;
    });
    return;
  }
  if (run.status !== "success") {
    const error =
      run.stopReason === "artifact_conflict"
        ? "The artifact copy in the member's uploads was changed before the run started."
        : `The member's run ended with status ${run.status}.`;
    await store.change(owner, teamId, (t) => finishJob(t, jobId, "failed", null, error));
    return;
  }
  const outcome = attribute(state, job.id, job.initial_run_id);
  if (!outcome.ok) {
    await store.change(owner, teamId, (t) => finishJob(t, jobId, "failed", null, outcome.error));
    return;
  }
  // The completion was decided on `state`; the capture is fenced to it and decides only files.
  const team = await underPoll(() => store.get(owner, teamId));
  const captures = await captureArtifacts(runs, team, job, state);
  await store.change(owner, teamId, (t) => {
    const contents = [];
    for (const capture of captures) {
      const artifact = t.artifacts.find(
        (a) => a.artifact_id === capture.artifactId && a.version === capture.version,
      );
      if (artifact === undefined || artifact.status !== "pending") continue;
      if (capture.ok) {
        artifact.status = "ready";
        artifact.sha256 = capture.sha256;
        artifact.size = capture.content.length;
        contents.push({
          artifactId: artifact.artifact_id,
          version: artifact.version,
          content: capture.content,
        });
      } else {
        artifact.status = "failed";
        artifact.error = capture.error;
      }
    }
    finishJob(t, jobId, "completed", outcome.result, null);
    return new WithContents(undefined, contents);
  });
}

/** An import or an admission carrying imports: a refusal other than "busy" fails the job. */
async function copying<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      error instanceof AgentRunError &&
      error.status !== 409 &&
      error.status !== 403 &&
      error.status !== 503
    ) {
      throw new ArtifactCopyError(
        `The artifact copy could not be handed to the member: ${error.message}`,
        { cause: error },
      );
    }
    throw error;
  }
}
