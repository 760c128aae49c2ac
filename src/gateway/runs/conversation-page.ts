import type { RunEvent, RunEventStore } from "../../ports/run-event-store.js";

/** Callers whose model calls and tool results are not the conversation: side calls, sub-agents. */
const OFF_CONVERSATION_CALLERS = ["middleware:", "subagent:"];

/** Rows read per store call while a page is filled past rows it leaves out. */
const SCAN_BATCH = 200;

/**
 * Whether a `message` row belongs to the conversation as the user had it: not a middleware's own
 * model call (title, summary, memory) and not a sub-agent's model call or tool result. Their rows
 * stay journalled, marked with `metadata.caller`.
 */
export function isConversationRow(event: RunEvent): boolean {
  const caller = event.metadata.caller;
  if (typeof caller !== "string") return true;
  return !OFF_CONVERSATION_CALLERS.some((prefix) => caller.startsWith(prefix));
}

export interface ConversationPage {
  /** Ascending by seq. */
  data: RunEvent[];
  hasMore: boolean;
}

/**
 * The last `limit` conversation rows below `beforeSeq` (all rows when absent), reading the store
 * backwards in batches until the page is full or the thread's start is reached; `hasMore` says
 * whether another conversation row lies before the page.
 */
export async function conversationPage(
  events: RunEventStore,
  threadId: string,
  options: { limit: number; beforeSeq?: number | undefined; userId: string },
): Promise<ConversationPage> {
  const wanted = options.limit + 1;
  const batch = Math.max(wanted, SCAN_BATCH);
  const newestFirst: RunEvent[] = [];
  let cursor = options.beforeSeq;
  while (newestFirst.length < wanted) {
    const rows = await events.listMessages(threadId, {
      limit: batch,
      userId: options.userId,
      ...(cursor !== undefined ? { beforeSeq: cursor } : {}),
    });
    for (let index = rows.length - 1; index >= 0 && newestFirst.length < wanted; index -= 1) {
      const row = rows[index];
      if (row && isConversationRow(row)) newestFirst.push(row);
    }
    const oldest = rows[0]?.seq;
    // A short batch is the thread's start; a cursor that would not move ends the scan too.
    if (rows.length < batch || oldest === undefined || (cursor !== undefined && oldest >= cursor)) {
      break;
    }
    cursor = oldest;
  }
  const hasMore = newestFirst.length > options.limit;
  return { data: newestFirst.slice(0, options.limit).reverse(), hasMore };
}
