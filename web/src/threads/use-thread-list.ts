import type { Client } from "@langchain/langgraph-sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../api/error-text.js";
import { summarize, type ThreadSummary } from "./thread-summary.js";

/** Chats per page of `POST /threads/search`. */
export const THREAD_PAGE_SIZE = 30;

export interface ThreadListState {
  threads: ThreadSummary[];
  error: string | null;
  /** More chats than those loaded may exist (the last page was full). */
  hasMore: boolean;
  loadingMore: boolean;
  /** Reloads every chat loaded so far (their titles, pins and order may have changed). */
  refresh: () => void;
  /** Appends the next page of older chats. */
  loadMore: () => void;
  /** Shows a changed title at once, before the next refresh confirms it. */
  retitle: (threadId: string, title: string) => void;
}

/**
 * The caller's chats, pinned first, then newest first, a page at a time. The server orders
 * pinned chats first in the one query that pages cut, so appending pages keeps that order; a
 * chat that moved between pages (it ran meanwhile) is kept once.
 */
export function useThreadList(client: Client): ThreadListState {
  const [threads, setThreads] = useState<ThreadSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  // How many chats the list shows: a refresh reloads that many, so older pages stay loaded.
  const loaded = useRef(THREAD_PAGE_SIZE);
  // Answers of an older refresh arriving after a newer one are dropped.
  const generation = useRef(0);

  const fetchPage = useCallback(
    (offset: number, limit: number) =>
      client.threads
        .search({ limit, offset, sortBy: "updated_at", sortOrder: "desc" })
        .then((found) => found.map(summarize)),
    [client],
  );

  const refresh = useCallback(() => {
    const mine = ++generation.current;
    const limit = loaded.current;
    fetchPage(0, limit)
      .then((found) => {
        if (mine !== generation.current) return;
        setThreads(found);
        setHasMore(found.length === limit);
        setError(null);
      })
      .catch((caught: unknown) => {
        if (mine === generation.current) setError(errorText(caught).text);
      });
  }, [fetchPage]);

  const loadMore = useCallback(() => {
    if (loadingMore) return;
    setLoadingMore(true);
    const mine = ++generation.current;
    fetchPage(threads.length, THREAD_PAGE_SIZE)
      .then((page) => {
        if (mine !== generation.current) return;
        const known = new Set(threads.map((thread) => thread.threadId));
        const next = [...threads, ...page.filter((thread) => !known.has(thread.threadId))];
        loaded.current = Math.max(THREAD_PAGE_SIZE, next.length);
        setThreads(next);
        setHasMore(page.length === THREAD_PAGE_SIZE);
        setError(null);
      })
      .catch((caught: unknown) => {
        if (mine === generation.current) setError(errorText(caught).text);
      })
      .finally(() => setLoadingMore(false));
  }, [fetchPage, threads, loadingMore]);

  const retitle = useCallback((threadId: string, title: string) => {
    setThreads((current) =>
      current.map((thread) => (thread.threadId === threadId ? { ...thread, title } : thread)),
    );
  }, []);

  useEffect(() => refresh(), [refresh]);
  return { threads, error, hasMore, loadingMore, refresh, loadMore, retitle };
}
