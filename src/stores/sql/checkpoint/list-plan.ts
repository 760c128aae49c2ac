import { randomUUID } from "node:crypto";
import type { Insertable } from "kysely";
import type { SqlExecutor } from "../database.js";
import type { CheckpointMessagesTable } from "../schema.js";
import { diffRefs, usesBase } from "./list-script.js";
import { chunked, type ListStore, LOOKUP_CHUNK } from "./list-store.js";
import type { EncodedElement } from "./list-values.js";

export interface WrittenList {
  listId: string;
  refs: readonly string[];
  /** Elements inserted because the base did not hold them. */
  inserted: EncodedElement[];
  /** Payload bytes: inserted elements plus the script text. */
  bytes: number;
}

const utf8 = new TextEncoder();

/**
 * Inserts one list version as a script over `baseId` (when given and still stored) plus the
 * elements the base does not already hold. Runs inside the thread's write transaction; the
 * returned refs may seed the cache only once that transaction has committed.
 */
export async function writeList(
  trx: SqlExecutor,
  lists: ListStore,
  threadId: string,
  baseId: string | undefined,
  elements: readonly EncodedElement[],
): Promise<WrittenList> {
  const baseRefs = baseId === undefined ? undefined : await lists.refs(trx, baseId);
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
    // Another branch of the thread may have stored the same message already.
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
      base_id: usesBase(script) ? (baseId ?? null) : null,
      length: refs.length,
      script: scriptText,
    })
    .execute();
  const inserted = [...fresh.values()];
  const bytes =
    inserted.reduce((sum, element) => sum + element.data.byteLength, 0) +
    utf8.encode(scriptText).length;
  return { listId, refs, inserted, bytes };
}
