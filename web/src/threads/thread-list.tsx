import type { Client } from "@langchain/langgraph-sdk";
import { type ReactNode, useState } from "react";
import { errorText } from "../api/error-text.js";
import { useT } from "../i18n/locale-context.js";
import { threadsMessages } from "../i18n/messages/threads.js";
import { ThreadRow } from "./thread-row.js";
import { PINNED_KEY, type ThreadSummary } from "./thread-summary.js";
import type { ThreadListState } from "./use-thread-list.js";
import "./threads.css";

export { chatPreview, PREVIEW_KEY, type ThreadSummary } from "./thread-summary.js";
export { type ThreadListState, useThreadList } from "./use-thread-list.js";

/** A chat renamed from the list; `title` null: the rename failed and was taken back. */
export interface ChatRename {
  threadId: string;
  title: string | null;
}

interface Props {
  list: ThreadListState;
  client: Client;
  activeThreadId: string | null;
  onOpen: (threadId: string) => void;
  onDeleted: (threadId: string) => void;
  /** Told at once, before the server confirms, so an open chat's header can follow. */
  onRenamed: (rename: ChatRename) => void;
}

export function ThreadList({
  list,
  client,
  activeThreadId,
  onOpen,
  onDeleted,
  onRenamed,
}: Props): ReactNode {
  const t = useT(threadsMessages);
  const [actionError, setActionError] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const needle = query.trim().toLowerCase();
  const shown = needle
    ? list.threads.filter((thread) =>
        (thread.title ?? t("untitled")).toLowerCase().includes(needle),
      )
    : list.threads;

  const togglePin = async (thread: ThreadSummary): Promise<void> => {
    try {
      await client.threads.update(thread.threadId, { metadata: { [PINNED_KEY]: !thread.pinned } });
      setActionError(null);
    } catch (caught) {
      setActionError(errorText(caught).text);
    }
    list.refresh();
  };

  // The reference renames with a state update of `title`: the server copies it to the thread's
  // display name, which search answers as `values.title`.
  const rename = async (thread: ThreadSummary, title: string): Promise<void> => {
    const before = thread.title;
    list.retitle(thread.threadId, title);
    onRenamed({ threadId: thread.threadId, title });
    try {
      await client.threads.updateState(thread.threadId, { values: { title } });
      setActionError(null);
    } catch (caught) {
      if (before !== null) list.retitle(thread.threadId, before);
      onRenamed({ threadId: thread.threadId, title: null });
      const info = errorText(caught);
      setActionError(
        info.status === 409 ? t("renameBusy") : t("renameFailed", { reason: info.text }),
      );
    }
    list.refresh();
  };

  const remove = async (threadId: string): Promise<void> => {
    try {
      await client.threads.delete(threadId);
      setActionError(null);
      onDeleted(threadId);
    } catch (caught) {
      setActionError(errorText(caught).text);
    }
    list.refresh();
  };

  return (
    <nav className="thread-list" aria-label={t("listLabel")}>
      <h2>{t("heading")}</h2>
      {list.error && <p className="error">{list.error}</p>}
      {actionError && (
        <p className="error" role="alert">
          {actionError}
        </p>
      )}
      {list.threads.length > 0 && (
        <input
          type="search"
          className="thread-search"
          aria-label={t("search")}
          placeholder={t("search")}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      )}
      {list.threads.length === 0 && !list.error && <p className="muted">{t("empty")}</p>}
      {list.threads.length > 0 && shown.length === 0 && (
        <p className="muted">{t("noMatch", { query: query.trim() })}</p>
      )}
      <ul>
        {shown.map((thread) => (
          <ThreadRow
            key={thread.threadId}
            thread={thread}
            active={thread.threadId === activeThreadId}
            onOpen={() => onOpen(thread.threadId)}
            onTogglePin={() => void togglePin(thread)}
            onRename={(title) => rename(thread, title)}
            onDelete={() => void remove(thread.threadId)}
          />
        ))}
      </ul>
      {needle && list.hasMore && (
        <p className="muted thread-list-note">
          {t("searchLoaded", { count: list.threads.length })}
        </p>
      )}
      {list.hasMore && (
        <button
          type="button"
          className="link-button load-more"
          disabled={list.loadingMore}
          onClick={list.loadMore}
        >
          {list.loadingMore ? t("loadingMore") : t("loadMore")}
        </button>
      )}
    </nav>
  );
}
