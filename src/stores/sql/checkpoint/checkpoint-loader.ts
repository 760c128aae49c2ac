import type { ChannelVersions, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { compareWritesSortKeys, TASKS, writesSortKey } from "@langchain/langgraph-checkpoint";
import type { Selectable } from "kysely";
import type { SqlExecutor } from "../database.js";
import type { CheckpointsTable, CheckpointWritesTable } from "../schema.js";
import { type BlobRow, fetchBlobsAndWrites, type WriteRow } from "./blobs-and-writes.js";
import { versionKey } from "./channel-version.js";
import type { Decoding } from "./element-codec.js";
import { ListCorruptError } from "./list-script.js";
import type { ListStore, StoredElement } from "./list-store.js";

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
  /** List elements already decoded in this process, taken when loading (copied on decode). */
  decodings: ReadonlyMap<string, Decoding>;
  /** Bytes of the other list elements. */
  elements: Map<string, StoredElement>;
}

/** The decodings a process has cached for some refs (see `ElementCodec.cachedDecodings`). */
export type CachedDecodings = (refs: Iterable<string>) => ReadonlyMap<string, Decoding>;

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

/**
 * Loads checkpoint rows of one thread (any namespaces) with their values, lists, elements and
 * pending writes: one statement for the blobs and writes of each namespace (more for a long
 * page), one chain walk per uncached list, one element query per 500 messages never decoded in
 * this process — never a query per checkpoint.
 */
export async function loadCheckpoints(
  trx: SqlExecutor,
  serde: SerializerProtocol,
  lists: ListStore,
  threadId: string,
  rows: readonly CheckpointRow[],
  cachedDecodings: CachedDecodings,
): Promise<LoadedCheckpoint[]> {
  const headers = await Promise.all(rows.map((row) => readHeader(serde, row)));
  const items = rows.map((row, i) => ({ row, header: headers[i] as CheckpointHeader }));
  const blobs = new Map<string, BlobRow>();
  const writes = new Map<string, WriteRow[]>();
  for (const ns of new Set(rows.map((row) => row.checkpoint_ns))) {
    const inNs = items.filter((item) => item.row.checkpoint_ns === ns);
    const found = await fetchBlobsAndWrites(trx, {
      threadId,
      ns,
      versions: versionsNamed(inNs),
      checkpointIds: checkpointsWithWrites(inNs),
    });
    for (const blob of found.blobs) blobs.set(blobKey(ns, blob.channel, blob.version), blob);
    for (const write of found.writes) {
      const key = writesKey(ns, write.checkpoint_id);
      writes.set(key, [...(writes.get(key) ?? []), write]);
    }
  }
  const listRefs = await resolveLists(trx, lists, blobs);
  const allRefs = new Set<string>();
  for (const refs of listRefs.values()) for (const ref of refs) allRefs.add(ref);
  // Bytes only for the elements not decoded yet: a warm read fetches and looks up nothing else.
  const decodings = cachedDecodings(allRefs);
  const undecoded = [...allRefs].filter((ref) => !decodings.has(ref));
  const elements = await lists.elementsOf(trx, threadId, undecoded);

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
    return { row, header, values, writes: sortWrites(own), parentSends, decodings, elements };
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

/** Every version the checkpoints name (their blobs hold the values). */
function versionsNamed(items: ReadonlyArray<{ header: CheckpointHeader }>): string[] {
  const versions = new Set<string>();
  for (const { header } of items) {
    for (const version of Object.values(header.channel_versions)) versions.add(versionKey(version));
  }
  return [...versions];
}

/** The checkpoints, and the parents of pre-format-4 ones (their pending sends). */
function checkpointsWithWrites(
  items: ReadonlyArray<{ row: CheckpointRow; header: CheckpointHeader }>,
): string[] {
  const ids = new Set<string>();
  for (const { row, header } of items) {
    ids.add(row.checkpoint_id);
    if (header.v < 4 && row.parent_checkpoint_id !== null) ids.add(row.parent_checkpoint_id);
  }
  return [...ids];
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
