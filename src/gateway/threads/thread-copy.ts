import { isoNow } from "../../core/clock.js";
import { newThreadId } from "../../core/ids.js";
import type { ThreadRow, ThreadStore } from "../../ports/thread-store.js";
import type { ThreadStateService } from "../state/thread-state-service.js";

/** The steps of a copy, in order (tests inject faults before each). */
export type ThreadCopyStep = "copy-checkpoints" | "create-row";

export interface ThreadCopyDeps {
  threads: Pick<ThreadStore, "create">;
  state: Pick<ThreadStateService, "copyThread" | "deleteThread">;
  onStep?: ((step: ThreadCopyStep) => Promise<void>) | undefined;
}

/**
 * A new thread of `userId`'s with the source's metadata, assistant and title and its whole
 * checkpoint history (every namespace, pending writes), as LangGraph's copy. `copy-checkpoints`
 * writes them under the new id, which no one can reach before its row exists; `create-row` then
 * makes it visible. A failure at either step deletes what the copy wrote, so no half copy is ever
 * visible. Runs, events and the thread's files are not copied.
 */
export async function copyThread(
  deps: ThreadCopyDeps,
  source: ThreadRow,
  userId: string,
): Promise<ThreadRow> {
  const copyId = newThreadId();
  const step = deps.onStep ?? (async () => undefined);
  try {
    await step("copy-checkpoints");
    await deps.state.copyThread(source.thread_id, copyId);
    await step("create-row");
    const { thread } = await deps.threads.create({
      thread_id: copyId,
      user_id: userId,
      assistant_id: source.assistant_id,
      display_name: source.display_name,
      metadata: source.metadata,
      created_at: isoNow(),
    });
    return thread;
  } catch (error) {
    await deps.state.deleteThread(copyId).catch(() => undefined);
    throw error;
  }
}
