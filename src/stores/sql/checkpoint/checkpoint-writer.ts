import type { Insertable } from "kysely";
import type { SqlExecutor } from "../database.js";
import type { CheckpointBlobsTable } from "../schema.js";
import type { CheckpointAddress } from "./checkpoint-config.js";
import { chunked, type ListStore, LOOKUP_CHUNK } from "./list-store.js";
import type { EncodedElement } from "./list-values.js";
import { type WrittenList, writeList } from "./list-writer.js";

/** A channel value to store at a new version, serialized before the transaction starts. */
export type EncodedChannel =
  | { channel: string; version: string; kind: "value"; type: string; data: Uint8Array }
  | { channel: string; version: string; kind: "list"; elements: EncodedElement[] }
  | { channel: string; version: string; kind: "empty" };

export interface EncodedCheckpoint {
  address: CheckpointAddress & { checkpointId: string };
  parentId: string | undefined;
  checkpointType: string;
  checkpointData: Uint8Array;
  metadataType: string;
  metadataData: Uint8Array;
  /** Channels named in the checkpoint's `channel_versions`. */
  channels: readonly string[];
  newValues: readonly EncodedChannel[];
}

/** What a committed put leaves for the caches and the byte meter. */
export interface PutResult {
  lists: WrittenList[];
  bytes: number;
}

const utf8 = new TextEncoder();

/**
 * The body of `put`, run inside the thread's write transaction. A list channel is written as a
 * script against the list the parent checkpoint shows for that channel (read here, under the
 * lock, so that base is known to exist). A blob already stored for a (channel, version) is kept:
 * a version names one value.
 */
export async function writeCheckpoint(
  trx: SqlExecutor,
  lists: ListStore,
  put: EncodedCheckpoint,
): Promise<PutResult> {
  const { threadId, ns } = put.address;
  const existing = await storedVersions(trx, threadId, ns, put.newValues);
  const parentLists = await parentListRefs(trx, put);
  const written = new Set(put.newValues.map((value) => value.channel));
  // The checkpoint's own list ids: carried over from the parent, or written below. They are the
  // delta bases of its children.
  const listRefs: Record<string, string> = {};
  for (const channel of put.channels) {
    const carried = parentLists[channel];
    if (!written.has(channel) && carried !== undefined) listRefs[channel] = carried;
  }
  const result: PutResult = { lists: [], bytes: 0 };
  const blobs: Insertable<CheckpointBlobsTable>[] = [];
  for (const value of put.newValues) {
    const stored = existing.get(`${value.channel}\u0000${value.version}`);
    if (stored !== undefined) {
      if (stored !== null) listRefs[value.channel] = stored;
      continue;
    }
    const row = { thread_id: threadId, checkpoint_ns: ns, channel: value.channel };
    const empty = { value_type: null, value: null, list_id: null };
    if (value.kind === "value") {
      blobs.push({
        ...row,
        ...empty,
        version: value.version,
        kind: "value",
        value_type: value.type,
        value: value.data,
      });
      result.bytes += value.data.byteLength;
    } else if (value.kind === "empty") {
      blobs.push({ ...row, ...empty, version: value.version, kind: "empty" });
    } else {
      const list = await writeList(
        trx,
        lists,
        threadId,
        parentLists[value.channel],
        value.elements,
      );
      result.lists.push(list);
      result.bytes += list.bytes;
      listRefs[value.channel] = list.listId;
      blobs.push({ ...row, ...empty, version: value.version, kind: "list", list_id: list.listId });
    }
  }
  for (const part of chunked(blobs, LOOKUP_CHUNK)) {
    await trx
      .insertInto("checkpoint_blobs")
      .values(part)
      .onConflict((oc) =>
        oc.columns(["thread_id", "checkpoint_ns", "channel", "version"]).doNothing(),
      )
      .execute();
  }
  result.bytes += await upsertCheckpoint(trx, put, JSON.stringify(listRefs));
  return result;
}

/** `channel\0version` → list id (null for non-list blobs) of the versions already stored. */
async function storedVersions(
  trx: SqlExecutor,
  threadId: string,
  ns: string,
  values: readonly EncodedChannel[],
): Promise<Map<string, string | null>> {
  const existing = new Map<string, string | null>();
  for (const part of chunked([...new Set(values.map((v) => v.version))], LOOKUP_CHUNK)) {
    const rows = await trx
      .selectFrom("checkpoint_blobs")
      .select(["channel", "version", "list_id"])
      .where("thread_id", "=", threadId)
      .where("checkpoint_ns", "=", ns)
      .where("version", "in", part)
      .execute();
    for (const row of rows) existing.set(`${row.channel}\u0000${row.version}`, row.list_id);
  }
  return existing;
}

/**
 * The parent checkpoint's `{channel: list_id}`, or nothing when it has no (stored) parent. Read
 * even when this put writes no list: its own `list_refs` carries the parent's over, or its child
 * would find no base and store its lists in full.
 */
async function parentListRefs(
  trx: SqlExecutor,
  put: EncodedCheckpoint,
): Promise<Record<string, string>> {
  if (put.parentId === undefined) return {};
  const row = await trx
    .selectFrom("checkpoints")
    .select("list_refs")
    .where("thread_id", "=", put.address.threadId)
    .where("checkpoint_ns", "=", put.address.ns)
    .where("checkpoint_id", "=", put.parentId)
    .executeTakeFirst();
  if (row === undefined) return {};
  const parsed: unknown = JSON.parse(row.list_refs);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/** Writes the checkpoint row (a re-put of the same id replaces it); returns its payload bytes. */
async function upsertCheckpoint(
  trx: SqlExecutor,
  put: EncodedCheckpoint,
  listRefs: string,
): Promise<number> {
  await trx
    .insertInto("checkpoints")
    .values({
      thread_id: put.address.threadId,
      checkpoint_ns: put.address.ns,
      checkpoint_id: put.address.checkpointId,
      parent_checkpoint_id: put.parentId ?? null,
      checkpoint_type: put.checkpointType,
      checkpoint: put.checkpointData,
      metadata_type: put.metadataType,
      metadata: put.metadataData,
      list_refs: listRefs,
    })
    .onConflict((oc) =>
      oc.columns(["thread_id", "checkpoint_ns", "checkpoint_id"]).doUpdateSet((eb) => ({
        parent_checkpoint_id: eb.ref("excluded.parent_checkpoint_id"),
        checkpoint_type: eb.ref("excluded.checkpoint_type"),
        checkpoint: eb.ref("excluded.checkpoint"),
        metadata_type: eb.ref("excluded.metadata_type"),
        metadata: eb.ref("excluded.metadata"),
        list_refs: eb.ref("excluded.list_refs"),
      })),
    )
    .execute();
  return put.checkpointData.byteLength + put.metadataData.byteLength + utf8.encode(listRefs).length;
}
