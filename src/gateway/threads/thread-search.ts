import {
  THREAD_PINNED_METADATA_KEY,
  type ThreadRow,
  type ThreadStore,
} from "../../ports/thread-store.js";
import { type ApiThread, toApiThread } from "./thread-response.js";
import type { ThreadSearchBody } from "./thread-schemas.js";

/**
 * `POST /threads/search` for one user. Threads pinned by the reference's sidebar
 * (`metadata.deerflow_pinned: true`) come first, then the chosen order, in the store's one query
 * so pages never overlap. `values` is the title alone, as the reference answers (a list never
 * loads every thread's state); `GET /threads/{id}` and `/state` give the whole state.
 */
export async function searchThreads(
  threads: Pick<ThreadStore, "search" | "get">,
  userId: string,
  body: ThreadSearchBody,
): Promise<ApiThread[]> {
  const limit = body.limit ?? 10;
  const offset = body.offset ?? 0;
  const rows = body.ids
    ? (await searchByIds(threads, userId, body.ids, body)).slice(offset, offset + limit)
    : await threads.search({
        userId,
        ...(body.metadata ? { metadata: body.metadata } : {}),
        ...(body.status ? { status: body.status } : {}),
        limit,
        offset,
        sortBy: storeSortColumn(body.sort_by),
        sortOrder: body.sort_order ?? "desc",
        pinnedKey: THREAD_PINNED_METADATA_KEY,
      });
  return rows.map((row) => toApiThread(row, null));
}

async function searchByIds(
  threads: Pick<ThreadStore, "get">,
  userId: string,
  ids: string[],
  body: ThreadSearchBody,
): Promise<ThreadRow[]> {
  const rows = await Promise.all([...new Set(ids)].map((id) => threads.get(id, { userId })));
  const column = storeSortColumn(body.sort_by);
  const direction = body.sort_order === "asc" ? 1 : -1;
  return rows
    .filter((row): row is ThreadRow => row !== null)
    .filter((row) => !body.status || row.status === body.status)
    .filter((row) =>
      Object.entries(body.metadata ?? {}).every(
        ([key, value]) => JSON.stringify(row.metadata[key]) === JSON.stringify(value),
      ),
    )
    .sort(
      (a, b) =>
        pinnedRank(b) - pinnedRank(a) ||
        direction * (a[column] < b[column] ? -1 : a[column] > b[column] ? 1 : 0),
    );
}

function pinnedRank(row: ThreadRow): number {
  return row.metadata[THREAD_PINNED_METADATA_KEY] === true ? 1 : 0;
}

function storeSortColumn(
  sortBy: ThreadSearchBody["sort_by"],
): "created_at" | "updated_at" | "thread_id" {
  switch (sortBy) {
    case "thread_id":
    case "created_at":
      return sortBy;
    case "updated_at":
    case "state_updated_at":
    case "status":
      return "updated_at";
    default:
      return "created_at";
  }
}
