import { apiJson } from "../api/http.js";
import type { ThreadValues } from "../api/types.js";

/** What `…/runs/regenerate/prepare` (and `edit-regenerate`) answer: the next run's start. */
export interface PreparedRerun {
  input: Partial<ThreadValues>;
  checkpoint: {
    checkpoint_ns: string;
    checkpoint_id: string;
    checkpoint_map: Record<string, unknown>;
  };
  metadata: Record<string, unknown>;
}

/**
 * Asks the server how to rerun the thread's latest turn: the checkpoint before it and the input
 * to replay (the same user message for `regenerate`, its new text for `edit-regenerate`).
 */
export function prepareRerun(
  threadId: string,
  route: "regenerate" | "edit-regenerate",
  body: Record<string, string>,
): Promise<PreparedRerun> {
  return apiJson<PreparedRerun>(`/threads/${encodeURIComponent(threadId)}/runs/${route}/prepare`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** A new thread holding the conversation up to `messageId` (`POST /threads/{id}/branches`). */
export function branchThread(threadId: string, messageId: string): Promise<{ thread_id: string }> {
  return apiJson<{ thread_id: string }>(`/threads/${encodeURIComponent(threadId)}/branches`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message_id: messageId }),
  });
}
