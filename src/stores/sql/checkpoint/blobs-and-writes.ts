import { type Selectable, sql } from "kysely";
import type { SqlExecutor } from "../database.js";
import type { CheckpointBlobsTable, CheckpointWritesTable } from "../schema.js";
import { chunked, LOOKUP_CHUNK } from "./list-store.js";

export type BlobRow = Selectable<CheckpointBlobsTable>;
export type WriteRow = Selectable<CheckpointWritesTable>;

/** What one namespace's checkpoints need from `checkpoint_blobs` and `checkpoint_writes`. */
export interface BlobsAndWritesQuery {
  threadId: string;
  ns: string;
  /** Versions the checkpoints name (their blobs). */
  versions: readonly string[];
  /** Checkpoints whose pending writes are wanted. */
  checkpointIds: readonly string[];
}

/** A row of the combined query: a blob or a write, in columns both fit into. */
interface CombinedRow {
  source: string;
  channel: string;
  key: string;
  name: string;
  value_type: string | null;
  value: Uint8Array | null;
  list_id: string | null;
  idx: number | string | null;
  task_path: string | null;
}

/**
 * Fetches the blobs of `versions` and the pending writes of `checkpointIds`. A read of a few
 * checkpoints (every `getTuple`) gets both in one statement, a `UNION ALL` in columns that fit
 * either row; longer lists (a page of `list`) take one statement per 500 keys of each.
 */
export async function fetchBlobsAndWrites(
  trx: SqlExecutor,
  query: BlobsAndWritesQuery,
): Promise<{ blobs: BlobRow[]; writes: WriteRow[] }> {
  const { threadId, ns } = query;
  const versions = [...chunked([...new Set(query.versions)], LOOKUP_CHUNK)];
  const ids = [...chunked([...new Set(query.checkpointIds)], LOOKUP_CHUNK)];
  const blobsIn = (part: readonly string[]) => sql`
    select 'blob' as source, channel, version as key, kind as name, value_type, value, list_id,
      null as idx, null as task_path
    from checkpoint_blobs
    where thread_id = ${threadId} and checkpoint_ns = ${ns} and version in (${sql.join(part)})`;
  const writesIn = (part: readonly string[]) => sql`
    select 'write' as source, channel, checkpoint_id as key, task_id as name, value_type, value,
      null as list_id, idx, task_path
    from checkpoint_writes
    where thread_id = ${threadId} and checkpoint_ns = ${ns}
      and checkpoint_id in (${sql.join(part)})`;
  const statements = [...versions.map(blobsIn), ...ids.map(writesIn)];
  const blobs: BlobRow[] = [];
  const writes: WriteRow[] = [];
  // Two parts (the usual read) go in one statement; more run one per part.
  const grouped = statements.length === 2 ? [sql.join(statements, sql` union all `)] : statements;
  for (const statement of grouped) {
    const { rows } = await sql<CombinedRow>`${statement}`.execute(trx);
    for (const row of rows) {
      if (row.source === "blob") blobs.push(blobOf(threadId, ns, row));
      else writes.push(writeOf(threadId, ns, row));
    }
  }
  return { blobs, writes };
}

function blobOf(threadId: string, ns: string, row: CombinedRow): BlobRow {
  return {
    thread_id: threadId,
    checkpoint_ns: ns,
    channel: row.channel,
    version: row.key,
    kind: row.name,
    value_type: row.value_type,
    value: row.value,
    list_id: row.list_id,
  };
}

function writeOf(threadId: string, ns: string, row: CombinedRow): WriteRow {
  return {
    thread_id: threadId,
    checkpoint_ns: ns,
    checkpoint_id: row.key,
    task_id: row.name,
    idx: Number(row.idx),
    channel: row.channel,
    // Both columns are NOT NULL in checkpoint_writes.
    value_type: row.value_type ?? "",
    value: row.value ?? new Uint8Array(),
    task_path: row.task_path ?? "",
  };
}
