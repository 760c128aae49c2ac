import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ConflictError, NotFoundError } from "../../core/errors.js";
import type { Json } from "../../core/json/serialize.js";
import type { RunEventStore } from "../../ports/run-event-store.js";
import { activeGoalOf } from "../goal/thread-goal.js";
import type { RunGateway } from "../runs/run-gateway.js";
import {
  additionalKwargs,
  isTerminalAiText,
  isVisibleAi,
  isVisibleHuman,
  messageId,
  replayableHuman,
  type StateMessage,
  stateMessages,
  userText,
} from "../state/state-messages.js";
import type { ApiThreadState } from "../state/thread-state.js";
import type { ThreadStateService } from "../state/thread-state-service.js";
import {
  type ReplayCheckpoint,
  replayCheckpointOf,
  runOfMessage,
  stateBeforeMessage,
} from "./replay-base.js";

const MAX_ID = 256;
const MAX_REPLACEMENT_CHARS = 100_000;

export const regenerateBody = z.object({ message_id: z.string().min(1).max(MAX_ID) });
export const editRegenerateBody = z.object({
  human_message_id: z.string().min(1).max(MAX_ID),
  replacement_text: z.string().min(1).max(MAX_REPLACEMENT_CHARS),
});

/** What the client sends back on its next run: input, the checkpoint to fork, run metadata. */
export interface ReplayPlan {
  input: Record<string, Json>;
  checkpoint: ReplayCheckpoint;
  metadata: Record<string, Json>;
  target_run_id: string;
}

export interface EditReplayPlan extends ReplayPlan {
  replacement_human_message_id: string;
  source_message_ids: string[];
}

export interface ReplayDeps {
  state: ThreadStateService;
  events: RunEventStore;
  runs: Pick<RunGateway, "list" | "getOwned">;
}

async function headOf(deps: ReplayDeps, threadId: string): Promise<ApiThreadState> {
  const head = await deps.state.state(threadId);
  if (!head.checkpoint?.checkpoint_id) {
    throw new NotFoundError(`Thread ${threadId} has no checkpoint; run it first.`);
  }
  return head;
}

async function baseBefore(
  deps: ReplayDeps,
  threadId: string,
  head: ApiThreadState,
  humanId: string,
): Promise<{ state: ApiThreadState; checkpoint: ReplayCheckpoint }> {
  const base = await stateBeforeMessage(deps.state, threadId, head, humanId);
  const checkpoint = base ? replayCheckpointOf(base) : null;
  if (!base || !checkpoint) {
    throw new ConflictError("This turn can no longer be replayed: no checkpoint before it.");
  }
  return { state: base, checkpoint };
}

/** The head's title, replayed as input so a rename after the base checkpoint survives. */
function currentTitle(head: ApiThreadState): Record<string, Json> {
  const title = head.values.title;
  return typeof title === "string" && title !== "" ? { title } : {};
}

/**
 * `regenerate/prepare`: the latest visible AI message `messageId` is answered again from the
 * state before the user message that asked for it.
 */
export async function prepareRegenerate(
  deps: ReplayDeps,
  threadId: string,
  userId: string,
  targetId: string,
): Promise<ReplayPlan> {
  const head = await headOf(deps, threadId);
  const messages = stateMessages(head);
  const index = messages.findIndex((message) => messageId(message) === targetId);
  const target = messages[index];
  if (!target) throw new NotFoundError(`Message ${targetId} not found`);
  if (!isVisibleAi(target)) {
    throw new ConflictError("Only visible assistant messages can be regenerated");
  }
  const latestAi = messages.findLast(isVisibleAi);
  if (messageId(latestAi) !== targetId) {
    throw new ConflictError("Only the latest assistant message can be regenerated");
  }
  const human = messages.slice(0, index).findLast(isVisibleHuman);
  const humanId = messageId(human);
  if (!human || !humanId) {
    throw new ConflictError("Could not find the user message for this assistant response");
  }
  const runId = await runOfMessage(deps, threadId, userId, targetId);
  if (!runId) throw new ConflictError("Could not find source run for assistant message");
  const { checkpoint } = await baseBefore(deps, threadId, head, humanId);
  return {
    input: { messages: [replayableHuman(human)], ...currentTitle(head) },
    checkpoint,
    metadata: {
      regenerate_from_message_id: targetId,
      regenerate_from_run_id: runId,
      regenerate_checkpoint_id: checkpoint.checkpoint_id,
    },
    target_run_id: runId,
  };
}

/** The latest user turn and the finished answer to it; 409 unless it is that shape. */
function latestEditableTurn(
  messages: StateMessage[],
  humanId: string,
): { human: StateMessage; ai: StateMessage; sourceIds: string[] } {
  const humanIndex = messages.findLastIndex(isVisibleHuman);
  const human = messages[humanIndex];
  if (!human || messageId(human) !== humanId) {
    throw new ConflictError("Only the latest completed user turn can be edited");
  }
  const turn = messages.slice(humanIndex);
  const ai = turn.findLast(isVisibleAi);
  if (!ai || !isTerminalAiText(ai)) {
    throw new ConflictError("Only completed assistant text turns can be edited");
  }
  const sourceIds = turn
    .slice(0, turn.indexOf(ai) + 1)
    .map(messageId)
    .filter((id): id is string => id !== null);
  return { human, ai, sourceIds };
}

/**
 * `edit-regenerate/prepare`: the latest user message is replaced by `replacementText` (a new
 * message id, its attached files kept) and answered again from the state before it.
 */
export async function prepareEditRegenerate(
  deps: ReplayDeps,
  threadId: string,
  userId: string,
  humanId: string,
  replacementText: string,
): Promise<EditReplayPlan> {
  const text = replacementText.trim();
  if (text === "") throw new ConflictError("Edited message cannot be empty");
  const head = await headOf(deps, threadId);
  if (activeGoalOf(head.values)) throw new ConflictError("Cannot edit while a goal is active");
  const { human, ai, sourceIds } = latestEditableTurn(stateMessages(head), humanId);
  if (userText(human).trim() === text) throw new ConflictError("Edited message is unchanged");
  const aiId = messageId(ai);
  if (!aiId) throw new ConflictError("The source assistant message is missing an id");
  const base = await baseBefore(deps, threadId, head, humanId);
  const runId = await runOfMessage(deps, threadId, userId, aiId);
  const run = runId ? await deps.runs.getOwned(threadId, runId, userId).catch(() => null) : null;
  if (!runId || !run) {
    throw new ConflictError("Could not find source run for assistant message");
  }
  if (run.status !== "success") {
    throw new ConflictError("Only successful assistant runs can be edited and rerun");
  }
  const replacementId = randomUUID();
  const sourceKwargs = additionalKwargs(human);
  const kwargs: Record<string, Json> = {};
  for (const key of ["files", "referenced_message_contexts"]) {
    const value = sourceKwargs[key];
    if (value !== undefined) kwargs[key] = value;
  }
  const replacement: StateMessage = {
    type: "human",
    id: replacementId,
    content: [{ type: "text", text }],
    additional_kwargs: kwargs,
  };
  const groupId = run.metadata.edit_version_group_id;
  // An untitled base belongs to a thread not named yet: keep it so, the title came from the
  // prompt this edit replaces.
  const title = typeof base.state.values.title === "string" ? currentTitle(head) : {};
  return {
    input: { messages: [replacement], ...title },
    checkpoint: base.checkpoint,
    metadata: {
      replay_kind: "edit",
      regenerate_from_message_id: aiId,
      regenerate_from_run_id: runId,
      regenerate_checkpoint_id: base.checkpoint.checkpoint_id,
      edit_from_message_id: humanId,
      edit_message_id: replacementId,
      edit_version_group_id: typeof groupId === "string" && groupId !== "" ? groupId : humanId,
    },
    target_run_id: runId,
    replacement_human_message_id: replacementId,
    source_message_ids: sourceIds,
  };
}
