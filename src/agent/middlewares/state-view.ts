import type { BaseMessage } from "@langchain/core/messages";
import { type Messages, messagesStateReducer, type OverwriteValue } from "@langchain/langgraph";
import type { ThreadState, ThreadStateUpdate } from "../lead-agent/thread-state.js";

/**
 * The state a later hook sees within one graph step, with earlier hooks' updates applied. Only
 * the view is computed here; the graph commits the same updates through its real reducers.
 * Messages use the real messages reducer; other fields take the new value unless it is
 * null/undefined, which matches every field a middleware writes (title, todos, summary, …).
 */
export function applyUpdate(state: ThreadState, update: ThreadStateUpdate): ThreadState {
  const next: ThreadState = { ...state };
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined || value === null) continue;
    if (key === "messages") {
      const written = update.messages;
      // Middlewares never overwrite the whole list; a reducer-bypassing write is left to the graph.
      if (written !== undefined && !isOverwrite(written)) {
        next.messages = messagesStateReducer(next.messages, written);
      }
    } else if (key in next) {
      Object.assign(next, { [key]: value });
    }
  }
  return next;
}

function isOverwrite(
  value: Messages | OverwriteValue<BaseMessage[]>,
): value is OverwriteValue<BaseMessage[]> {
  return typeof value === "object" && value !== null && "__overwrite__" in value;
}
