/** Thread metadata rows: owner, status and user metadata. Vocabulary follows LangGraph. */

import type { FencedWrite } from "./write-fence.js";

export const THREAD_STATUSES = ["idle", "busy", "interrupted", "error"] as const;
export type ThreadStatus = (typeof THREAD_STATUSES)[number];

export interface ThreadRow {
  thread_id: string;
  user_id: string | null;
  assistant_id: string | null;
  display_name: string | null;
  status: ThreadStatus;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface NewThread {
  thread_id: string;
  user_id?: string | null;
  assistant_id?: string | null;
  display_name?: string | null;
  metadata?: Record<string, unknown>;
  created_at: string;
}

export interface ThreadPatch {
  metadata?: Record<string, unknown>;
  display_name?: string | null;
  assistant_id?: string | null;
}

export interface ThreadSearch {
  userId?: string | null;
  /** Every key/value must equal the thread's metadata entry (JSON equality). */
  metadata?: Record<string, unknown>;
  status?: ThreadStatus;
  limit?: number;
  offset?: number;
  sortBy?: "created_at" | "updated_at" | "thread_id";
  sortOrder?: "asc" | "desc";
  /**
   * Rows whose metadata holds `true` under this key come first (then the sort above), so a page
   * of a pinned-first list is one query: the reference's sidebar pins with `deerflow_pinned`.
   */
  pinnedKey?: string;
}

/** The metadata key the reference's web UI pins a thread with (`PATCH … {metadata}`). */
export const THREAD_PINNED_METADATA_KEY = "deerflow_pinned";

export interface ThreadStore {
  /** Inserts; returns `{created: false}` with the existing row when the id is taken. */
  create(thread: NewThread): Promise<{ thread: ThreadRow; created: boolean }>;
  get(threadId: string, scope?: { userId?: string | null }): Promise<ThreadRow | null>;
  /** Metadata patches merge shallowly into the stored metadata. Null when not found/not owned. */
  update(
    threadId: string,
    patch: ThreadPatch,
    scope?: { userId?: string | null },
  ): Promise<ThreadRow | null>;
  /**
   * False when the thread has no row. With a fence (a run's worker writing its thread's status)
   * the write commits only while the run's row names that worker as its owner, checked in the same
   * statement; otherwise it changes nothing and rejects with `OwnershipLostError`.
   */
  updateStatus(
    threadId: string,
    status: ThreadStatus,
    now: string,
    options?: FencedWrite,
  ): Promise<boolean>;
  updateDisplayName(threadId: string, displayName: string, now: string): Promise<boolean>;
  search(query: ThreadSearch): Promise<ThreadRow[]>;
  count(query: Omit<ThreadSearch, "limit" | "offset" | "sortBy" | "sortOrder">): Promise<number>;
  delete(threadId: string, scope?: { userId?: string | null }): Promise<boolean>;
  close(): Promise<void>;
}
