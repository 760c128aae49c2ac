import type { Client, Thread } from "@langchain/langgraph-sdk";
import { type ReactNode, useCallback, useEffect, useState } from "react";

export interface ThreadSummary {
  threadId: string;
  title: string;
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
      .catch((caught: unknown) =>
        setError(caught instanceof Error ? caught.message : String(caught)),
      );
  }, [client]);
  useEffect(() => refresh(), [refresh]);
  return { threads, error, refresh };
}

export function summarize(thread: Thread): ThreadSummary {
  const values = thread.values as Record<string, unknown> | null | undefined;
  const title = typeof values?.title === "string" && values.title.trim() ? values.title : null;
  return {
    threadId: thread.thread_id,
    title: title ?? "New chat",
    updatedAt: thread.updated_at,
    status: thread.status,
  };
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

  const remove = async (threadId: string): Promise<void> => {
    setConfirming(null);
    try {
      await client.threads.delete(threadId);
      setDeleteError(null);
      onDeleted(threadId);
    } catch (caught) {
      setDeleteError(caught instanceof Error ? caught.message : String(caught));
    }
    list.refresh();
  };

  return (
    <nav className="thread-list" aria-label="Chats">
      <h2>Chats</h2>
      {list.error && <p className="error">{list.error}</p>}
      {deleteError && <p className="error">{deleteError}</p>}
      {list.threads.length === 0 && !list.error && <p className="muted">No chats yet.</p>}
      <ul>
        {list.threads.map((thread) => (
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
            {confirming === thread.threadId ? (
              <button
                type="button"
                className="danger small"
                onClick={() => void remove(thread.threadId)}
              >
                Delete?
              </button>
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
