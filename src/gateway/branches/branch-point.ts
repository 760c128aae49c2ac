import { ConflictError } from "../../core/errors.js";
import {
  isVisibleAi,
  isVisibleHuman,
  messageId,
  messageType,
  type StateMessage,
  stateMessages,
} from "../state/state-messages.js";
import type { ApiThreadState } from "../state/thread-state.js";
import type { ThreadStateService } from "../state/thread-state-service.js";

/** How many checkpoints back a branch point is looked for. */
const HISTORY_SCAN_LIMIT = 200;

export interface BranchPoint {
  state: ApiThreadState;
  checkpointId: string;
  /** The turn is the thread's latest: its files are the branch's files too. */
  latestTurn: boolean;
}

/** The target AI messages are all there and nothing visible follows the last of them. */
function endsWithTurn(messages: StateMessage[], targets: ReadonlySet<string>): boolean {
  const indexes: number[] = [];
  for (const [index, message] of messages.entries()) {
    const id = messageId(message);
    if (id !== null && targets.has(id)) {
      if (messageType(message) !== "ai") return false;
      indexes.push(index);
    }
  }
  if (indexes.length !== targets.size) return false;
  const after = messages.slice(Math.max(...indexes) + 1);
  return !after.some((message) => isVisibleHuman(message) || isVisibleAi(message));
}

/**
 * The newest checkpoint at rest (nothing left to run: a next run's input checkpoint would carry
 * its pending message into the branch) whose conversation ends with the target turn. 409 when
 * the turn is not in the recent history any more.
 */
export async function findBranchPoint(
  state: Pick<ThreadStateService, "history">,
  threadId: string,
  targets: ReadonlySet<string>,
): Promise<BranchPoint> {
  const history = await state.history(threadId, { limit: HISTORY_SCAN_LIMIT });
  const withMessages = history.filter((entry) => stateMessages(entry).length > 0);
  const latestTurn = withMessages[0]
    ? endsWithTurn(stateMessages(withMessages[0]), targets)
    : false;
  for (const entry of withMessages) {
    const id = entry.checkpoint?.checkpoint_id;
    if (id && entry.next.length === 0 && endsWithTurn(stateMessages(entry), targets)) {
      return { state: entry, checkpointId: id, latestTurn };
    }
  }
  throw new ConflictError("This turn can no longer be branched from.");
}
