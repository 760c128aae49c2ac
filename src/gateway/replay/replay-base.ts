import type { RunEventStore } from "../../ports/run-event-store.js";
import type { RunGateway } from "../runs/run-gateway.js";
import { messageId, stateMessages } from "../state/state-messages.js";
import type { ApiThreadState, CheckpointRef } from "../state/thread-state.js";
import type { ThreadStateService } from "../state/thread-state-service.js";

/** How far back the parent walk and the journal scan look (the reference's bounds). */
const MAX_LINEAGE_STEPS = 400;
const MESSAGE_SCAN_LIMIT = 200;

/** The checkpoint as a run's `checkpoint` field takes it (the reference's prepare answer). */
export interface ReplayCheckpoint {
  checkpoint_ns: string;
  checkpoint_id: string;
  checkpoint_map: CheckpointRef["checkpoint_map"];
}

export function replayCheckpointOf(state: ApiThreadState): ReplayCheckpoint | null {
  const ref = state.checkpoint;
  if (!ref?.checkpoint_id) return null;
  return {
    checkpoint_ns: ref.checkpoint_ns,
    checkpoint_id: ref.checkpoint_id,
    checkpoint_map: ref.checkpoint_map,
  };
}

function holds(state: ApiThreadState, id: string): boolean {
  return stateMessages(state).some((message) => messageId(message) === id);
}

/**
 * The state to replay a turn from: walking the head's parent links (one lineage, so an earlier
 * regenerate's sibling branch is never picked), the first ancestor without the message `id` that
 * is at rest (nothing left to run; a mid-run checkpoint would replay its pending writes). A first
 * turn has no such ancestor; then its input checkpoint (the thread before the message) is the
 * base. Null when the message is not on the head's lineage.
 */
export async function stateBeforeMessage(
  state: ThreadStateService,
  threadId: string,
  head: ApiThreadState,
  id: string,
): Promise<ApiThreadState | null> {
  if (!holds(head, id)) return null;
  let current = head;
  let unsettled: ApiThreadState | null = null;
  const seen = new Set<string>();
  for (let step = 0; step < MAX_LINEAGE_STEPS; step += 1) {
    const parent = current.parent_checkpoint;
    if (!parent?.checkpoint_id || seen.has(parent.checkpoint_id)) break;
    seen.add(parent.checkpoint_id);
    const previous = await state.state(threadId, {
      checkpoint_id: parent.checkpoint_id,
      checkpoint_ns: parent.checkpoint_ns,
    });
    if (!holds(previous, id)) {
      if (previous.next.length === 0) return previous;
      unsettled ??= previous;
    }
    current = previous;
  }
  return unsettled;
}

/**
 * The run that produced the AI message `id`: its `llm.ai.response` event in the thread's journal,
 * else the thread's latest run (only the latest turn can be replayed, and it is that run's).
 */
export async function runOfMessage(
  stores: { events: RunEventStore; runs: Pick<RunGateway, "list"> },
  threadId: string,
  userId: string,
  id: string,
): Promise<string | null> {
  const rows = await stores.events.listMessages(threadId, { limit: MESSAGE_SCAN_LIMIT, userId });
  for (const row of [...rows].reverse()) {
    if (row.event_type !== "llm.ai.response" && row.event_type !== "ai_message") continue;
    const content = row.content;
    if (typeof content === "object" && content !== null && "id" in content && content.id === id) {
      return row.run_id;
    }
  }
  const [latest] = await stores.runs.list(threadId, userId, { limit: 1, offset: 0 });
  return latest?.run_id ?? null;
}
