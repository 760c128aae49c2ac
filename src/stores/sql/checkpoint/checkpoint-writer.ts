import type { Insertable } from "kysely";
import type { SqlExecutor } from "../database.js";
import type { CheckpointBlobsTable } from "../schema.js";
import type { SqlDialectName } from "../sql-dialect-name.js";
import type { CheckpointAddress } from "./checkpoint-config.js";
import { type PlannedList, planListVersion } from "./list-plan.js";
import type { ListStore } from "./list-store.js";
import type { EncodedElement } from "./list-values.js";
import { type PutBase, readPutBase, storedKey } from "./put-base.js";
import { type FinalBatch, insertPutRows, type PutRows } from "./put-statements.js";

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
  /** Whether the transaction already checked a write fence (so it has sent a statement). */
  fenced: boolean;
}

/** What a committed put leaves for the caches and the byte meter. */
export interface PutResult {
  lists: PlannedList[];
  bytes: number;
}

const utf8 = new TextEncoder();

/** A put's rows, planned against what is already stored. */
export interface PlannedPut {
  rows: PutRows;
  /** The checkpoint's `{channel: list_id}`: the delta bases of its children. */
  listRefs: Record<string, string>;
  result: PutResult;
}

/** Plans a list channel's new version against its base list (`planListVersion` over a reader). */
export type ListPlanner = (
  baseId: string | undefined,
  elements: readonly EncodedElement[],
) => Promise<PlannedList>;

/**
 * The body of `put`, run inside the thread's write transaction: one read (stored versions and
 * the parent's list ids), then every row inserted together (see `insertPutRows`). A list channel
 * is written as a script against the list the parent checkpoint shows for that channel (read
 * here, under the lock, so that base is known to exist). A blob already stored for a (channel,
 * version) is kept: a version names one value.
 */
export async function writeCheckpoint(
  trx: SqlExecutor,
  dialect: SqlDialectName,
  finish: FinalBatch,
  lists: ListStore,
  put: EncodedCheckpoint,
): Promise<PlannedPut> {
  const base = await readPutBase(
    trx,
    put.address,
    put.parentId,
    put.newValues.map((value) => value.version),
  );
  const planned = await planPut(put, base, (baseId, elements) =>
    planListVersion(trx, lists, put.address.threadId, baseId, elements),
  );
  await insertPutRows(dialect, finish, planned.rows, base.queried || put.fenced);
  return planned;
}

/** Every row of a put, given what is stored already (`PutBase`); writes nothing. */
export async function planPut(
  put: EncodedCheckpoint,
  base: Pick<PutBase, "stored" | "parentLists">,
  planList: ListPlanner,
): Promise<PlannedPut> {
  const { threadId, ns } = put.address;
  const { stored, parentLists } = base;
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
    const existing = stored.get(storedKey(value.channel, value.version));
    if (existing !== undefined) {
      if (existing !== null) listRefs[value.channel] = existing;
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
      const list = await planList(parentLists[value.channel], value.elements);
      result.lists.push(list);
      result.bytes += list.bytes;
      listRefs[value.channel] = list.listId;
      blobs.push({ ...row, ...empty, version: value.version, kind: "list", list_id: list.listId });
    }
  }
  const listRefsText = JSON.stringify(listRefs);
  result.bytes +=
    put.checkpointData.byteLength + put.metadataData.byteLength + utf8.encode(listRefsText).length;
  return {
    listRefs,
    result,
    rows: {
      messages: uniqueMessageRows(result.lists),
      lists: result.lists.map((list) => list.listRow),
      blobs,
      checkpoint: {
        thread_id: threadId,
        checkpoint_ns: ns,
        checkpoint_id: put.address.checkpointId,
        parent_checkpoint_id: put.parentId ?? null,
        checkpoint_type: put.checkpointType,
        checkpoint: put.checkpointData,
        metadata_type: put.metadataType,
        metadata: put.metadataData,
        list_refs: listRefsText,
      },
    },
  };
}

/** Two list channels of one put may hold the same message: one row (PostgreSQL rejects twins). */
function uniqueMessageRows(lists: readonly PlannedList[]): PlannedList["messageRows"] {
  if (lists.length === 1) return lists[0]?.messageRows ?? [];
  const rows = new Map<string, PlannedList["messageRows"][number]>();
  for (const list of lists) for (const row of list.messageRows) rows.set(row.message_hash, row);
  return [...rows.values()];
}
