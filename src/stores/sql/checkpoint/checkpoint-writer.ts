import { randomUUID } from "node:crypto";
import type { Insertable } from "kysely";
import type { SqlExecutor } from "../database.js";
import type {
  CheckpointBlobsTable,
  CheckpointMessagesTable,
  CheckpointWritesTable,
} from "../schema.js";
import type { CheckpointAddress } from "./checkpoint-config.js";
import { diffRefs, usesBase } from "./list-script.js";
import { chunked, type ListStore, LOOKUP_CHUNK } from "./list-store.js";
import type { EncodedElement } from "./list-values.js";

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
  /** Channels named in the checkpoint's `channel_versions` (carried-over list hints stay valid). */
  channels: readonly string[];
  newValues: readonly EncodedChannel[];
}

/** What a committed put leaves for the caches and the byte meter. */
export interface PutResult {
  lists: Array<{ listId: string; refs: readonly string[] }>;
  insertedElements: EncodedElement[];
  bytes: number;
}

const utf8 = new TextEncoder();

function parseListRefs(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/**
 * The body of `put`, run inside the thread's write transaction. A list channel is written as a
 * script against the list the parent checkpoint shows for that channel (read here, under the
 * lock, so the base is known to exist), and only the elements the base does not hold are
 * inserted. Blobs already stored for a (channel, version) are kept: a version names one value.
 */
export async function writeCheckpoint(
  trx: SqlExecutor,
  lists: ListStore,
  put: EncodedCheckpoint,
): Promise<PutResult> {
  const { threadId, ns, checkpointId } = put.address;
  const result: PutResult = { lists: [], insertedElements: [], bytes: 0 };
  const existing = new Map<string, string | null>();
  for (const part of chunked([...new Set(put.newValues.map((v) => v.version))], LOOKUP_CHUNK)) {
    const rows = await trx
      .selectFrom("checkpoint_blobs")
      .select(["channel", "version", "list_id"])
      .where("thread_id", "=", threadId)
      .where("checkpoint_ns", "=", ns)
      .where("version", "in", part)
      .execute();
    for (const row of rows) existing.set(`${row.channel}\u0000${row.version}`, row.list_id);
  }
  const parentRow =
    put.parentId === undefined
      ? undefined
      : await trx
          .selectFrom("checkpoints")
          .select("list_refs")
          .where("thread_id", "=", threadId)
          .where("checkpoint_ns", "=", ns)
          .where("checkpoint_id", "=", put.parentId)
          .executeTakeFirst();
  const parentLists = parseListRefs(parentRow?.list_refs);

  const listRefs: Record<string, string> = {};
  const written = new Set(put.newValues.map((value) => value.channel));
  for (const channel of put.channels) {
    const carried = parentLists[channel];
    if (!written.has(channel) && carried !== undefined) listRefs[channel] = carried;
  }
  const blobs: Insertable<CheckpointBlobsTable>[] = [];
  for (const value of put.newValues) {
    const stored = existing.get(`${value.channel}\u0000${value.version}`);
    if (stored !== undefined) {
      if (stored !== null) listRefs[value.channel] = stored;
      continue;
    }
    const blob = { thread_id: threadId, checkpoint_ns: ns, channel: value.channel };
    if (value.kind === "value") {
      blobs.push({
        ...blob,
        version: value.version,
        kind: "value",
        value_type: value.type,
        value: value.data,
        list_id: null,
      });
      result.bytes += value.data.byteLength;
    } else if (value.kind === "empty") {
      blobs.push({
        ...blob,
        version: value.version,
        kind: "empty",
        value_type: null,
        value: null,
        list_id: null,
      });
    } else {
      const listId = await writeList(
        trx,
        lists,
        threadId,
        parentLists[value.channel],
        value.elements,
        result,
      );
      listRefs[value.channel] = listId;
      blobs.push({
        ...blob,
        version: value.version,
        kind: "list",
        value_type: null,
        value: null,
        list_id: listId,
      });
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
  const listRefsText = JSON.stringify(listRefs);
  await trx
    .insertInto("checkpoints")
    .values({
      thread_id: threadId,
      checkpoint_ns: ns,
      checkpoint_id: checkpointId,
      parent_checkpoint_id: put.parentId ?? null,
      checkpoint_type: put.checkpointType,
      checkpoint: put.checkpointData,
      metadata_type: put.metadataType,
      metadata: put.metadataData,
      list_refs: listRefsText,
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
  result.bytes +=
    put.checkpointData.byteLength + put.metadataData.byteLength + utf8.encode(listRefsText).length;
  return result;
}

/** Inserts one list version (and the elements its base lacks); returns its new id. */
async function writeList(
  trx: SqlExecutor,
  lists: ListStore,
  threadId: string,
  baseHint: string | undefined,
  elements: readonly EncodedElement[],
  result: PutResult,
): Promise<string> {
  const baseRefs = baseHint === undefined ? undefined : await lists.refs(trx, baseHint);
  const refs = elements.map((element) => element.ref);
  const script = diffRefs(baseRefs ?? [], refs);
  const known = new Set(baseRefs);
  const fresh = new Map<string, EncodedElement>();
  for (const element of elements) {
    if (!known.has(element.ref) && !fresh.has(element.ref)) fresh.set(element.ref, element);
  }
  const rows: Insertable<CheckpointMessagesTable>[] = [...fresh.values()].map((element) => ({
    thread_id: threadId,
    message_hash: element.ref,
    message_type: element.type,
    message: element.data,
  }));
  for (const part of chunked(rows, LOOKUP_CHUNK)) {
    await trx
      .insertInto("checkpoint_messages")
      .values(part)
      .onConflict((oc) => oc.columns(["thread_id", "message_hash"]).doNothing())
      .execute();
  }
  const listId = randomUUID();
  const scriptText = JSON.stringify(script);
  await trx
    .insertInto("checkpoint_lists")
    .values({
      list_id: listId,
      thread_id: threadId,
      // A script without ranges stands alone, which also ends the chain a reader has to walk.
      base_id: usesBase(script) ? (baseHint ?? null) : null,
      length: refs.length,
      script: scriptText,
    })
    .execute();
  for (const element of fresh.values()) result.bytes += element.data.byteLength;
  result.bytes += utf8.encode(scriptText).length;
  result.insertedElements.push(...fresh.values());
  result.lists.push({ listId, refs });
  return listId;
}

/** Pending writes of one task; special channels (negative idx) replace, others keep the first. */
export async function writePendingWrites(
  trx: SqlExecutor,
  rows: readonly Insertable<CheckpointWritesTable>[],
): Promise<void> {
  const special = rows.filter((row) => row.idx < 0);
  const regular = rows.filter((row) => row.idx >= 0);
  const key = ["thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"] as const;
  for (const part of chunked(regular, LOOKUP_CHUNK)) {
    await trx
      .insertInto("checkpoint_writes")
      .values(part)
      .onConflict((oc) => oc.columns([...key]).doNothing())
      .execute();
  }
  for (const part of chunked(special, LOOKUP_CHUNK)) {
    await trx
      .insertInto("checkpoint_writes")
      .values(part)
      .onConflict((oc) =>
        oc.columns([...key]).doUpdateSet((eb) => ({
          channel: eb.ref("excluded.channel"),
          value_type: eb.ref("excluded.value_type"),
          value: eb.ref("excluded.value"),
          task_path: eb.ref("excluded.task_path"),
        })),
      )
      .execute();
  }
}
