import type { Client, Thread } from "@langchain/langgraph-sdk";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../api/error-text.js";

export interface ThreadSummary {
  threadId: string;
  title: string;
  /** Pinned chats come first (the server sorts them so; the reference's metadata key). */
  pinned: boolean;
  updatedAt: string;
  status: string;
}

export interface ThreadListState {
  threads: ThreadSummary[];
  error: string | null;
  refresh: () => void;
}

/** The caller's threads, newest first (`POST /api/threads/search`). */
export function useThreadList(client: Client): ThreadListState {
  const [threads, setThreads] = useState<ThreadSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => {
    client.threads
      .search({ limit: 100, sortBy: "updated_at", sortOrder: "desc" })
      .then((found) => {
        setThreads(found.map(summarize));
        setError(null);
      })
      .catch((caught: unknown) => setError(errorText(caught).text));
  }, [client]);
  useEffect(() => refresh(), [refresh]);
  return { threads, error, refresh };
}

export function summarize(thread: Thread): ThreadSummary {
  const values = thread.values as Record<string, unknown> | null | undefined;
  const title = typeof values?.title === "string" && values.title.trim() ? values.title : null;
  return {
    threadId: thread.thread_id,
    // Before the title middleware names it, a chat reads as its first message (the workspace
    // stores it in the thread's metadata when it creates the thread).
    title: title ?? previewOf(thread.metadata) ?? "New chat",
    pinned: isRecord(thread.metadata) && thread.metadata[PINNED_KEY] === true,
    updatedAt: thread.updated_at,
    status: thread.status,
  };
}

/** Thread metadata key the reference's sidebar pins chats with; search puts them first. */
const PINNED_KEY = "deerflow_pinned";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** Thread metadata key holding the first message of a chat, cut to `PREVIEW_CHARS`. */
export const PREVIEW_KEY = "preview";
const PREVIEW_CHARS = 80;

export function chatPreview(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, PREVIEW_CHARS);
}

function previewOf(metadata: unknown): string | null {
  if (typeof metadata !== "object" || metadata === null) return null;
  const preview = (metadata as Record<string, unknown>)[PREVIEW_KEY];
  return typeof preview === "string" && preview.trim() ? preview : null;
}

interface Props {
  list: ThreadListState;
  client: Client;
  activeThreadId: string | null;
  onOpen: (threadId: string) => void;
  onDeleted: (threadId: string) => void;
}

export function ThreadList({ list, client, activeThreadId, onOpen, onDeleted }: Props): ReactNode {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const needle = query.trim().toLowerCase();
  const shown = needle
    ? list.threads.filter((thread) => thread.title.toLowerCase().includes(needle))
    : list.threads;

  const togglePin = async (thread: ThreadSummary): Promise<void> => {
    try {
      await client.threads.update(thread.threadId, {
        metadata: { [PINNED_KEY]: !thread.pinned },
      });
      setDeleteError(null);
    } catch (caught) {
      setDeleteError(errorText(caught).text);
    }
    list.refresh();
  };

  const remove = async (threadId: string): Promise<void> => {
    setConfirming(null);
    try {
      await client.threads.delete(threadId);
      setDeleteError(null);
      onDeleted(threadId);
    } catch (caught) {
      setDeleteError(errorText(caught).text);
    }
    list.refresh();
  };

  return (
    <nav className="thread-list" aria-label="Chats">
      <h2>Chats</h2>
      {list.error && <p className="error">{list.error}</p>}
      {deleteError && <p className="error">{deleteError}</p>}
      {list.threads.length > 0 && (
        <input
          type="search"
          className="thread-search"
          aria-label="Search chats"
          placeholder="Search chats"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      )}
      {list.threads.length === 0 && !list.error && <p className="muted">No chats yet.</p>}
      {list.threads.length > 0 && shown.length === 0 && (
        <p className="muted">No chat matches “{query.trim()}”.</p>
      )}
      <ul>
        {shown.map((thread) => (
          <li
            key={thread.threadId}
            className={thread.threadId === activeThreadId ? "thread active" : "thread"}
          >
            <button
              type="button"
              className="thread-open"
              data-thread-id={thread.threadId}
              title={new Date(thread.updatedAt).toLocaleString()}
              onClick={() => onOpen(thread.threadId)}
            >
              <span className="thread-title">{thread.title}</span>
              {thread.status === "busy" && <span className="badge">running</span>}
            </button>
            <button
              type="button"
              className="icon small pin-toggle"
              aria-label={`${thread.pinned ? "Unpin" : "Pin"} ${thread.title}`}
              aria-pressed={thread.pinned}
              onClick={() => void togglePin(thread)}
            >
              {thread.pinned ? "★" : "☆"}
            </button>
            {confirming === thread.threadId ? (
              <ConfirmDelete
                onConfirm={() => void remove(thread.threadId)}
                onCancel={() => setConfirming(null)}
              />
            ) : (
              <button
                type="button"
                className="icon small"
                aria-label={`Delete ${thread.title}`}
                onClick={() => setConfirming(thread.threadId)}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The second step of a delete: focused, so Escape (or moving away) cancels it. */
function ConfirmDelete({
  onConfirm,
  onCancel,
}: {
  onConfirm: () => void;
  onCancel: () => void;
}): ReactNode {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <button
      ref={button}
      type="button"
      className="danger small"
      onClick={onConfirm}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onCancel();
        }
      }}
      onBlur={onCancel}
    >
      Delete?
    </button>
  );
}
