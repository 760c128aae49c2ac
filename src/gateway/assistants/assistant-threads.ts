import type { ThreadService } from "../threads/thread-service.js";

/** Threads one delete removes per search round. */
const PAGE = 100;

/**
 * `DELETE /assistants/{id}?delete_threads=true`: the caller's threads whose metadata names the
 * assistant (runs stamp `metadata.assistant_id`), deleted one by one through the thread service
 * so each waits out its own active run rules. A busy thread stops the sweep with its 409.
 */
export async function deleteAssistantThreads(
  threads: ThreadService,
  assistantId: string,
  userId: string,
): Promise<void> {
  for (;;) {
    const page = await threads.search(userId, {
      metadata: { assistant_id: assistantId },
      limit: PAGE,
    });
    for (const thread of page) await threads.delete(thread.thread_id, userId);
    if (page.length < PAGE) return;
  }
}
