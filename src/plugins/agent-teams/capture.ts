import {
  AgentRunError,
  type AgentRuns,
  type AgentThreadState,
} from "../../extensions/api/index.js";
import { TimeoutError, transfer, underPoll, workerDeadline } from "./deadline.js";
import { pendingArtifacts } from "./jobs.js";
import { markOf, sameMark } from "./messages.js";
import type { Job, Team } from "./model.js";
import { sha256 } from "./store.js";

export type CaptureOutcome = { artifactId: string; version: number } & (
  | { ok: true; content: Uint8Array; sha256: string }
  | { ok: false; error: string }
);

/**
 * Reads each pending artifact of the completing job, fenced to `checked` — the state the job's
 * completion was decided on: after the bytes are read the thread's head must still be that
 * state (same checkpoint, same messages), else a later turn may have rewritten the file and the
 * capture fails. A failed read fails the artifact, never the job; a cancelled worker rethrows
 * (the next pass reads again).
 */
export async function captureArtifacts(
  runs: AgentRuns,
  team: Team,
  job: Job,
  checked: AgentThreadState,
): Promise<CaptureOutcome[]> {
  const outcomes: CaptureOutcome[] = [];
  const before = markOf(checked);
  for (const artifact of pendingArtifacts(team, job.id)) {
    const id = { artifactId: artifact.artifact_id, version: artifact.version };
    let content: Uint8Array;
    try {
      content = await transfer((args) => runs.readArtifact(args), {
        threadId: artifact.source.thread_id,
        path: artifact.path,
      });
    } catch (error) {
      if (workerDeadline.getStore()?.cancelled.aborted === true) throw error;
      if (error instanceof TimeoutError || error instanceof AgentRunError) {
        outcomes.push({ ...id, ok: false, error: `The file could not be read: ${error.message}` });
        continue;
      }
      throw error;
    }
    const after = markOf(await getStateOrEmpty(runs, artifact.source.thread_id));
    if (!sameMark(before, after)) {
      outcomes.push({
        ...id,
        ok: false,
        error:
          "The member's conversation moved on while the file was read; the copy was discarded.",
      });
      continue;
    }
    outcomes.push({ ...id, ok: true, content, sha256: sha256(content) });
  }
  return outcomes;
}

/** The thread state; a thread without a checkpoint yet (404) reads as empty. */
export async function getStateOrEmpty(
  runs: AgentRuns,
  threadId: string,
): Promise<AgentThreadState> {
  try {
    return await underPoll(() => runs.getState({ threadId }));
  } catch (error) {
    if (error instanceof AgentRunError && error.status === 404) {
      return { values: { messages: [] }, next: [], interrupts: [], checkpointId: null };
    }
    throw error;
  }
}
