import { isDeepStrictEqual } from "node:util";
import { type Selectable, sql } from "kysely";
import { ValidationError } from "../../core/errors.js";
import {
  type NewThread,
  THREAD_STATUSES,
  type ThreadPatch,
  type ThreadRow,
  type ThreadSearch,
  type ThreadStatus,
  type ThreadStore,
} from "../../ports/thread-store.js";
import { type FencedWrite, ownershipLost, type WriteFence } from "../../ports/write-fence.js";
import { fromDbObject, fromDbTimestamp, toDbJson, toDbTimestamp, toNumber } from "./codec.js";
import type { ThreadsMetaTable } from "./schema.js";
import type { SqlDialectName } from "./sql-dialect-name.js";
import { SqlStore } from "./sql-store.js";
import { affectedRows, sqlStatement } from "./sql-text.js";
import { metadataFilter } from "./thread-metadata-filter.js";

const DEFAULT_SEARCH_LIMIT = 10;
const STATUS_UPDATE = "update threads_meta set status = ?, updated_at = ? where thread_id = ?";
const FENCED_STATUS_UPDATE: Record<SqlDialectName, string> = {
  sqlite: `${STATUS_UPDATE} and exists (select 1 from runs where run_id = ? and owner_worker_id = ?)`,
  postgres: `${STATUS_UPDATE} and exists (select 1 from runs where run_id = ? and owner_worker_id = ? for share)`,
};
const SORT_COLUMNS = ["created_at", "updated_at", "thread_id"] as const;
/** Rows fetched per round when metadata has to be compared in JS. */
const SCAN_PAGE_ROWS = 200;

type ThreadFilter = Omit<ThreadSearch, "limit" | "offset" | "sortBy" | "sortOrder">;
type Scope = { userId?: string | null };

function threadFromDb(record: Selectable<ThreadsMetaTable>): ThreadRow {
  return {
    thread_id: record.thread_id,
    user_id: record.user_id,
    assistant_id: record.assistant_id,
    display_name: record.display_name,
    status: record.status as ThreadStatus,
    metadata: fromDbObject(record.metadata_json),
    created_at: fromDbTimestamp(record.created_at),
    updated_at: fromDbTimestamp(record.updated_at),
  };
}

function checkStatus(status: ThreadStatus): void {
  if (!THREAD_STATUSES.includes(status)) {
    throw new ValidationError(
      `Invalid thread status "${String(status)}"; use one of ${THREAD_STATUSES.join(", ")}.`,
    );
  }
}

function matchesMetadata(row: ThreadRow, wanted: Record<string, unknown> | undefined): boolean {
  return Object.entries(wanted ?? {}).every(([key, value]) =>
    isDeepStrictEqual(row.metadata[key], value),
  );
}

/** Thread metadata rows (`threads_meta`) over Kysely. */
export class SqlThreadStore extends SqlStore implements ThreadStore {
  create(thread: NewThread): Promise<{ thread: ThreadRow; created: boolean }> {
    return this.wrap("create a thread", async () => {
      const createdAt = toDbTimestamp(thread.created_at, "created_at");
      // Once per run when clients create threads on the fly: SQL text (see sql-text.ts).
      const { rows } = await this.db.executeQuery<Selectable<ThreadsMetaTable>>(
        sqlStatement(
          this.database.dialect,
          `insert into threads_meta
  (thread_id, user_id, assistant_id, display_name, status, metadata_json, created_at, updated_at)
values (?, ?, ?, ?, 'idle', ?, ?, ?)
on conflict (thread_id) do nothing
returning *`,
          [
            thread.thread_id,
            thread.user_id ?? null,
            thread.assistant_id ?? null,
            thread.display_name ?? null,
            toDbJson(thread.metadata),
            createdAt,
            createdAt,
          ],
        ),
      );
      const [inserted] = rows;
      if (inserted !== undefined) return { thread: threadFromDb(inserted), created: true };
      const existing = await this.get(thread.thread_id);
      if (existing === null) {
        // Deleted between our insert and this read: report the race instead of inventing a row.
        throw new Error(`Thread ${thread.thread_id} vanished while being created; retry.`);
      }
      return { thread: existing, created: false };
    });
  }

  get(threadId: string, scope: Scope = {}): Promise<ThreadRow | null> {
    return this.wrap("read a thread", async () => {
      const record = await this.db
        .selectFrom("threads_meta")
        .selectAll()
        .where("thread_id", "=", threadId)
        .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
        .executeTakeFirst();
      return record === undefined ? null : threadFromDb(record);
    });
  }

  update(threadId: string, patch: ThreadPatch, scope: Scope = {}): Promise<ThreadRow | null> {
    return this.wrap("update a thread", () =>
      // Read-merge-write of the metadata must not interleave with another patch.
      this.database.transaction(async (trx) => {
        const record = await trx
          .selectFrom("threads_meta")
          .selectAll()
          .where("thread_id", "=", threadId)
          .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
          .$if(this.database.dialect === "postgres", (qb) => qb.forUpdate())
          .executeTakeFirst();
        if (record === undefined) return null;
        const current = threadFromDb(record);
        const updated = await trx
          .updateTable("threads_meta")
          .set({
            metadata_json: toDbJson({ ...current.metadata, ...(patch.metadata ?? {}) }),
            updated_at: this.now(),
            ...(patch.display_name === undefined ? {} : { display_name: patch.display_name }),
            ...(patch.assistant_id === undefined ? {} : { assistant_id: patch.assistant_id }),
          })
          .where("thread_id", "=", threadId)
          .returningAll()
          .executeTakeFirst();
        return updated === undefined ? null : threadFromDb(updated);
      }),
    );
  }

  updateStatus(
    threadId: string,
    status: ThreadStatus,
    now: string,
    options: FencedWrite = {},
  ): Promise<boolean> {
    return this.wrap("update a thread's status", async () => {
      checkStatus(status);
      const { fence } = options;
      const params = [status, toDbTimestamp(now, "now"), threadId];
      // Twice per run: SQL text, not the query builder (see sql-text.ts). A fenced write checks
      // the run's owner in the same statement (on PostgreSQL locking the run's row, so a takeover
      // waits for it or it sees the new owner).
      const result = await this.db.executeQuery(
        sqlStatement(
          this.database.dialect,
          fence ? FENCED_STATUS_UPDATE[this.database.dialect] : STATUS_UPDATE,
          fence ? [...params, fence.runId, fence.workerId] : params,
        ),
      );
      if (affectedRows(result) > 0) return true;
      if (fence) await this.explainRefusal(fence);
      return false;
    });
  }

  /** After a fenced status write changed nothing: the fence, or no such thread? */
  private async explainRefusal(fence: WriteFence): Promise<void> {
    const run = await this.db
      .selectFrom("runs")
      .select("owner_worker_id")
      .where("run_id", "=", fence.runId)
      .executeTakeFirst();
    if (run?.owner_worker_id !== fence.workerId) {
      throw ownershipLost(fence, "update the thread's status");
    }
  }

  updateDisplayName(threadId: string, displayName: string, now: string): Promise<boolean> {
    return this.wrap("rename a thread", async () => {
      const result = await this.db
        .updateTable("threads_meta")
        .set({ display_name: displayName, updated_at: toDbTimestamp(now, "now") })
        .where("thread_id", "=", threadId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  search(query: ThreadSearch): Promise<ThreadRow[]> {
    return this.wrap("search threads", async () => {
      const limit = query.limit ?? DEFAULT_SEARCH_LIMIT;
      const offset = Math.max(0, query.offset ?? 0);
      if (limit <= 0) return [];
      const { exact } = metadataFilter(this.database.dialect, query.metadata);
      if (exact) {
        const records = await this.ordered(query).limit(limit).offset(offset).execute();
        return records.map(threadFromDb);
      }
      // Some metadata needs a JS comparison: walk the ordered rows in pages, so offset and limit
      // count matching rows only.
      const found: ThreadRow[] = [];
      let skipped = 0;
      for (let page = 0; ; page++) {
        const records = await this.ordered(query)
          .limit(SCAN_PAGE_ROWS)
          .offset(page * SCAN_PAGE_ROWS)
          .execute();
        for (const row of records.map(threadFromDb)) {
          if (!matchesMetadata(row, query.metadata)) continue;
          if (skipped < offset) skipped++;
          else found.push(row);
          if (found.length >= limit) return found;
        }
        if (records.length < SCAN_PAGE_ROWS) return found;
      }
    });
  }

  count(query: ThreadFilter): Promise<number> {
    return this.wrap("count threads", async () => {
      const { exact } = metadataFilter(this.database.dialect, query.metadata);
      if (exact) {
        const result = await this.filtered(query)
          .select((eb) => eb.fn.countAll<number | string>().as("count"))
          .executeTakeFirst();
        return toNumber(result?.count);
      }
      const records = await this.filtered(query).selectAll().execute();
      return records.map(threadFromDb).filter((row) => matchesMetadata(row, query.metadata)).length;
    });
  }

  delete(threadId: string, scope: Scope = {}): Promise<boolean> {
    return this.wrap("delete a thread", async () => {
      const result = await this.db
        .deleteFrom("threads_meta")
        .where("thread_id", "=", threadId)
        .$if(scope.userId != null, (qb) => qb.where("user_id", "=", scope.userId ?? null))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** Owner, status and the metadata conditions SQL can decide. */
  private filtered(query: ThreadFilter) {
    const { conditions } = metadataFilter(this.database.dialect, query.metadata);
    let builder = this.db
      .selectFrom("threads_meta")
      .$if(query.userId != null, (qb) => qb.where("user_id", "=", query.userId ?? null))
      .$if(query.status !== undefined, (qb) => qb.where("status", "=", query.status ?? "idle"));
    for (const condition of conditions) builder = builder.where(condition);
    return builder;
  }

  /**
   * Sorted by the chosen column, then by thread id in the same direction so pages never overlap.
   * Thread ids compare bytewise on both engines (PostgreSQL's default collation would not).
   */
  private ordered(query: ThreadSearch) {
    const direction = query.sortOrder === "asc" ? "asc" : "desc";
    const byId = this.database.dialect === "postgres" ? sql`thread_id collate "C"` : sql`thread_id`;
    const base = this.filtered(query).selectAll();
    const sortBy = query.sortBy ?? "created_at";
    if (!SORT_COLUMNS.includes(sortBy)) {
      throw new ValidationError(
        `Cannot sort threads by "${String(sortBy)}"; use ${SORT_COLUMNS.join(", ")}.`,
      );
    }
    const pinned =
      query.pinnedKey === undefined
        ? base
        : base.orderBy(pinnedFirst(this.database.dialect, query.pinnedKey), "desc");
    const sorted = sortBy === "thread_id" ? pinned : pinned.orderBy(sortBy, direction);
    return sorted.orderBy(byId, direction);
  }
}

/** 1 when the row's metadata holds JSON `true` under `key`, else 0 (missing keys included). */
function pinnedFirst(dialect: SqlDialectName, key: string) {
  if (dialect === "postgres") {
    return sql<number>`case when metadata_json -> ${key} = 'true'::jsonb then 1 else 0 end`;
  }
  return sql<number>`case when json_type(metadata_json, ${`$."${key.replace(/["\\]/g, "")}"`}) = 'true' then 1 else 0 end`;
}
