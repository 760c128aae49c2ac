import type { ChannelVersions, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { compareWritesSortKeys, TASKS, writesSortKey } from "@langchain/langgraph-checkpoint";
import type { Selectable } from "kysely";
import type { SqlExecutor } from "../database.js";
import type { CheckpointBlobsTable, CheckpointsTable, CheckpointWritesTable } from "../schema.js";
import { versionKey } from "./channel-version.js";
import { ListCorruptError } from "./list-script.js";
import { chunked, type ListStore, LOOKUP_CHUNK, type StoredElement } from "./list-store.js";

export type CheckpointRow = Selectable<CheckpointsTable>;

/** The stored checkpoint minus its values (those live in `checkpoint_blobs`). */
export interface CheckpointHeader {
  v: number;
  id: string;
  ts: string;
  channel_versions: ChannelVersions;
  versions_seen: Record<string, ChannelVersions>;
}

export type StoredValue =
  | { kind: "value"; type: string; data: Uint8Array }
  | { kind: "list"; refs: readonly string[] };

export interface StoredWrite {
  taskId: string;
  channel: string;
  type: string;
  data: Uint8Array;
}

/** Everything one checkpoint needs to be decoded, fetched inside one read transaction. */
export interface LoadedCheckpoint {
  row: CheckpointRow;
  header: CheckpointHeader;
  values: Map<string, StoredValue>;
  /** Pending writes in `writesSortKey` order. */
  writes: StoredWrite[];
  /** For checkpoints older than format 4: the parent's pending sends, migrated on read. */
  parentSends: StoredWrite[] | null;
  elements: Map<string, StoredElement>;
}

function isHeader(value: unknown): value is CheckpointHeader {
  if (typeof value !== "object" || value === null) return false;
  const header = value as Partial<CheckpointHeader>;
  return (
    typeof header.v === "number" &&
    typeof header.id === "string" &&
    typeof header.channel_versions === "object" &&
    typeof header.versions_seen === "object"
  );
}

function sortWrites(rows: Selectable<CheckpointWritesTable>[]): StoredWrite[] {
  return rows
    .map((row) => ({ row, key: writesSortKey(row.task_path, row.task_id, row.idx) }))
    .sort((a, b) => compareWritesSortKeys(a.key, b.key))
    .map(({ row }) => ({
      taskId: row.task_id,
      channel: row.channel,
      type: row.value_type,
      data: row.value,
    }));
}

type BlobRow = Selectable<CheckpointBlobsTable>;
type WriteRow = Selectable<CheckpointWritesTable>;

/**
 * Loads checkpoint rows of one thread (any namespaces) with their values, lists, elements and
 * pending writes: one blob query and one writes query per namespace, one chain walk per uncached
 * list, one element query per 500 uncached messages — never a query per checkpoint.
 */
export async function loadCheckpoints(
  trx: SqlExecutor,
  serde: SerializerProtocol,
  lists: ListStore,
  threadId: string,
  rows: readonly CheckpointRow[],
): Promise<LoadedCheckpoint[]> {
  const headers = await Promise.all(rows.map((row) => readHeader(serde, row)));
  const items = rows.map((row, i) => ({ row, header: headers[i] as CheckpointHeader }));
  const blobs = new Map<string, BlobRow>();
  const writes = new Map<string, WriteRow[]>();
  for (const ns of new Set(rows.map((row) => row.checkpoint_ns))) {
    const inNs = items.filter((item) => item.row.checkpoint_ns === ns);
    await fetchBlobs(trx, threadId, ns, inNs, blobs);
    await fetchWrites(trx, threadId, ns, inNs, writes);
  }
  const listRefs = await resolveLists(trx, lists, blobs);
  const allRefs = new Set<string>();
  for (const refs of listRefs.values()) for (const ref of refs) allRefs.add(ref);
  const elements = await lists.elementsOf(trx, threadId, allRefs);

  return items.map(({ row, header }) => {
    const values = new Map<string, StoredValue>();
    for (const [channel, version] of Object.entries(header.channel_versions)) {
      const blob = blobs.get(blobKey(row.checkpoint_ns, channel, versionKey(version)));
      if (blob?.kind === "value" && blob.value !== null && blob.value_type !== null) {
        values.set(channel, { kind: "value", type: blob.value_type, data: blob.value });
      } else if (blob?.kind === "list" && blob.list_id !== null) {
        values.set(channel, { kind: "list", refs: listRefs.get(blob.list_id) ?? [] });
      }
    }
    const own = writes.get(writesKey(row.checkpoint_ns, row.checkpoint_id)) ?? [];
    const parentSends =
      header.v < 4 && row.parent_checkpoint_id !== null
        ? sortWrites(
            (writes.get(writesKey(row.checkpoint_ns, row.parent_checkpoint_id)) ?? []).filter(
              (write) => write.channel === TASKS,
            ),
          )
        : null;
    return { row, header, values, writes: sortWrites(own), parentSends, elements };
  });
}

async function readHeader(
  serde: SerializerProtocol,
  row: CheckpointRow,
): Promise<CheckpointHeader> {
  const header: unknown = await serde.loadsTyped(row.checkpoint_type, row.checkpoint);
  if (!isHeader(header)) {
    throw new ListCorruptError(`Checkpoint ${row.checkpoint_id} has an unreadable header.`);
  }
  return header;
}

/** The blobs of every version the namespace's checkpoints name (one query per 500 versions). */
async function fetchBlobs(
  trx: SqlExecutor,
  threadId: string,
  ns: string,
  items: ReadonlyArray<{ header: CheckpointHeader }>,
  into: Map<string, BlobRow>,
): Promise<void> {
  const versions = new Set<string>();
  for (const { header } of items) {
    for (const version of Object.values(header.channel_versions)) versions.add(versionKey(version));
  }
  for (const part of chunked([...versions], LOOKUP_CHUNK)) {
    const found = await trx
      .selectFrom("checkpoint_blobs")
      .selectAll()
      .where("thread_id", "=", threadId)
      .where("checkpoint_ns", "=", ns)
      .where("version", "in", part)
      .execute();
    for (const blob of found) into.set(blobKey(ns, blob.channel, blob.version), blob);
  }
}

/** Pending writes of the checkpoints, and of the parents of pre-format-4 ones (pending sends). */
async function fetchWrites(
  trx: SqlExecutor,
  threadId: string,
  ns: string,
  items: ReadonlyArray<{ row: CheckpointRow; header: CheckpointHeader }>,
  into: Map<string, WriteRow[]>,
): Promise<void> {
  const ids = new Set<string>();
  for (const { row, header } of items) {
    ids.add(row.checkpoint_id);
    if (header.v < 4 && row.parent_checkpoint_id !== null) ids.add(row.parent_checkpoint_id);
  }
  for (const part of chunked([...ids], LOOKUP_CHUNK)) {
    const found = await trx
      .selectFrom("checkpoint_writes")
      .selectAll()
      .where("thread_id", "=", threadId)
      .where("checkpoint_ns", "=", ns)
      .where("checkpoint_id", "in", part)
      .execute();
    for (const write of found) {
      const key = writesKey(ns, write.checkpoint_id);
      into.set(key, [...(into.get(key) ?? []), write]);
    }
  }
}

/**
 * Refs of every list among the blobs, oldest version first: a list's base is usually the
 * previous one, so each walk ends at a list this loop has just materialized instead of going
 * down the whole chain again.
 */
async function resolveLists(
  trx: SqlExecutor,
  lists: ListStore,
  blobs: ReadonlyMap<string, BlobRow>,
): Promise<Map<string, readonly string[]>> {
  const listBlobs = [...blobs.values()].filter((blob) => blob.kind === "list");
  listBlobs.sort((a, b) => compareNumbers(Number(a.version), Number(b.version)));
  const resolved = new Map<string, readonly string[]>();
  for (const blob of listBlobs) {
    if (blob.list_id === null || resolved.has(blob.list_id)) continue;
    const refs = await lists.refs(trx, blob.list_id);
    if (refs === undefined) {
      throw new ListCorruptError(`List ${blob.list_id} of channel ${blob.channel} is missing.`);
    }
    resolved.set(blob.list_id, refs);
  }
  return resolved;
}

/** Ascending, with unparsable (non-numeric) versions last. */
function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return a - b;
}

function blobKey(ns: string, channel: string, version: string): string {
  return `${ns}\u0000${channel}\u0000${version}`;
}

function writesKey(ns: string, checkpointId: string): string {
  return `${ns}\u0000${checkpointId}`;
}
