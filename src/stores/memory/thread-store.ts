import { isDeepStrictEqual } from "node:util";
import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import type {
  NewThread,
  ThreadPatch,
  ThreadRow,
  ThreadSearch,
  ThreadStatus,
  ThreadStore,
} from "../../ports/thread-store.js";
import { assertFence, type FencedWrite, type RunOwnership } from "../../ports/write-fence.js";
import type { MemoryStoreOptions } from "./run-store.js";

export interface MemoryThreadStoreOptions extends MemoryStoreOptions {
  /** The run rows a fenced status write checks (the paired run store); none: nothing to check. */
  owners?: RunOwnership;
}

const DEFAULT_SEARCH_LIMIT = 10;

type ThreadFilter = Omit<ThreadSearch, "limit" | "offset" | "sortBy" | "sortOrder">;

/** Thread rows in a map; reads hand out copies so callers cannot edit stored state. */
export class MemoryThreadStore implements ThreadStore {
  private readonly rows = new Map<string, ThreadRow>();
  private readonly clock: Clock;
  private readonly owners: RunOwnership | undefined;

  constructor(options: MemoryThreadStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.owners = options.owners;
  }

  async create(thread: NewThread): Promise<{ thread: ThreadRow; created: boolean }> {
    const existing = this.rows.get(thread.thread_id);
    if (existing) return { thread: structuredClone(existing), created: false };
    const row: ThreadRow = {
      thread_id: thread.thread_id,
      user_id: thread.user_id ?? null,
      assistant_id: thread.assistant_id ?? null,
      display_name: thread.display_name ?? null,
      status: "idle",
      metadata: structuredClone(thread.metadata ?? {}),
      created_at: thread.created_at,
      updated_at: thread.created_at,
    };
    this.rows.set(row.thread_id, row);
    return { thread: structuredClone(row), created: true };
  }

  async get(threadId: string, scope: { userId?: string | null } = {}): Promise<ThreadRow | null> {
    const row = this.owned(threadId, scope.userId);
    return row ? structuredClone(row) : null;
  }

  async update(
    threadId: string,
    patch: ThreadPatch,
    scope: { userId?: string | null } = {},
  ): Promise<ThreadRow | null> {
    const row = this.owned(threadId, scope.userId);
    if (!row) return null;
    const metadata = patch.metadata === undefined ? row.metadata : structuredClone(patch.metadata);
    row.metadata = { ...row.metadata, ...metadata };
    if (patch.display_name !== undefined) row.display_name = patch.display_name;
    if (patch.assistant_id !== undefined) row.assistant_id = patch.assistant_id;
    row.updated_at = isoNow(this.clock);
    return structuredClone(row);
  }

  async updateStatus(
    threadId: string,
    status: ThreadStatus,
    now: string,
    options: FencedWrite = {},
  ): Promise<boolean> {
    // Checked and written in one synchronous stretch: no takeover can come in between.
    assertFence(this.owners, options.fence, "update the thread's status");
    const row = this.rows.get(threadId);
    if (!row) return false;
    row.status = status;
    row.updated_at = now;
    return true;
  }

  async updateDisplayName(threadId: string, displayName: string, now: string): Promise<boolean> {
    const row = this.rows.get(threadId);
    if (!row) return false;
    row.display_name = displayName;
    row.updated_at = now;
    return true;
  }

  async search(query: ThreadSearch): Promise<ThreadRow[]> {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
    const sortBy = query.sortBy ?? "created_at";
    const direction = query.sortOrder === "asc" ? 1 : -1;
    const pinned = (row: ThreadRow) =>
      query.pinnedKey !== undefined && row.metadata[query.pinnedKey] === true ? 1 : 0;
    return this.matching(query)
      .sort((a, b) => pinned(b) - pinned(a) || direction * compareBy(a, b, sortBy))
      .slice(offset, offset + limit)
      .map((row) => structuredClone(row));
  }

  async count(query: ThreadFilter): Promise<number> {
    return this.matching(query).length;
  }

  async delete(threadId: string, scope: { userId?: string | null } = {}): Promise<boolean> {
    if (!this.owned(threadId, scope.userId)) return false;
    return this.rows.delete(threadId);
  }

  async close(): Promise<void> {}

  private owned(threadId: string, userId: string | null | undefined): ThreadRow | undefined {
    const row = this.rows.get(threadId);
    return row && (userId == null || row.user_id === userId) ? row : undefined;
  }

  private matching(filter: ThreadFilter): ThreadRow[] {
    const wanted = Object.entries(filter.metadata ?? {});
    return [...this.rows.values()].filter(
      (row) =>
        (filter.userId == null || row.user_id === filter.userId) &&
        (filter.status === undefined || row.status === filter.status) &&
        wanted.every(([key, value]) => isDeepStrictEqual(row.metadata[key], value)),
    );
  }
}

/** Orders by the chosen column, then by thread id so pages never overlap. */
function compareBy(
  a: ThreadRow,
  b: ThreadRow,
  column: "created_at" | "updated_at" | "thread_id",
): number {
  const primary = column === "thread_id" ? 0 : Date.parse(a[column]) - Date.parse(b[column]);
  if (primary !== 0 && !Number.isNaN(primary)) return primary;
  return a.thread_id < b.thread_id ? -1 : a.thread_id > b.thread_id ? 1 : 0;
}
