import type { Thread } from "@langchain/langgraph-sdk";

export interface ThreadSummary {
  threadId: string;
  /** The chat's title, else its first message; null: neither yet (shown as "New chat"). */
  title: string | null;
  /** Pinned chats come first (the server sorts them so; the reference's metadata key). */
  pinned: boolean;
  updatedAt: string;
  status: string;
}

/** Thread metadata key the reference's sidebar pins chats with; search puts them first. */
export const PINNED_KEY = "deerflow_pinned";

/** Thread metadata key holding the first message of a chat, cut to `PREVIEW_CHARS`. */
export const PREVIEW_KEY = "preview";
const PREVIEW_CHARS = 80;

export function chatPreview(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, PREVIEW_CHARS);
}

/**
 * A search result as the list shows it. The title is `values.title`: search answers it from the
 * thread's display name, which the title middleware and a rename (a state update of `title`) set.
 */
export function summarize(thread: Thread): ThreadSummary {
  const values = thread.values as Record<string, unknown> | null | undefined;
  const title = typeof values?.title === "string" && values.title.trim() ? values.title : null;
  return {
    threadId: thread.thread_id,
    // Before the title middleware names it, a chat reads as its first message (the workspace
    // stores it in the thread's metadata when it creates the thread).
    title: title ?? previewOf(thread.metadata),
    pinned: isRecord(thread.metadata) && thread.metadata[PINNED_KEY] === true,
    updatedAt: thread.updated_at,
    status: thread.status,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function previewOf(metadata: unknown): string | null {
  if (!isRecord(metadata)) return null;
  const preview = metadata[PREVIEW_KEY];
  return typeof preview === "string" && preview.trim() ? preview : null;
}
