import { randomUUID } from "node:crypto";
import type { Insertable } from "kysely";
import type { SqlExecutor } from "../database.js";
import type { CheckpointListsTable, CheckpointMessagesTable } from "../schema.js";
import { diffRefs, indexRefs, usesBase } from "./list-script.js";
import type { ListStore } from "./list-store.js";
import type { EncodedElement } from "./list-values.js";

/** One list version ready to insert, and what it leaves for the caches and the byte meter. */
export interface PlannedList {
  listId: string;
  refs: readonly string[];
  listRow: Insertable<CheckpointListsTable>;
  /** Elements the base does not hold: rows to insert (another branch may have stored some). */
  inserted: EncodedElement[];
  messageRows: Insertable<CheckpointMessagesTable>[];
  /** Payload bytes: inserted elements plus the script text. */
  bytes: number;
}

const utf8 = new TextEncoder();

/**
 * Plans one list version as a script over `baseId` (when given and still stored) plus the
 * elements the base does not already hold. Reads the base's refs (usually cached) inside the
 * thread's write transaction; writes nothing, so a put can insert all its rows together. The
 * refs may seed the cache only once that transaction has committed.
 */
export async function planListVersion(
  trx: SqlExecutor,
  lists: ListStore,
  threadId: string,
  baseId: string | undefined,
  elements: readonly EncodedElement[],
): Promise<PlannedList> {
  const baseRefs = baseId === undefined ? undefined : await lists.refs(trx, baseId);
  const refs = elements.map((element) => element.ref);
  const baseIndex = indexRefs(baseRefs ?? []);
  const script = diffRefs(baseRefs ?? [], refs, baseIndex);
  const fresh = new Map<string, EncodedElement>();
  for (const element of elements) {
    if (!baseIndex.has(element.ref) && !fresh.has(element.ref)) fresh.set(element.ref, element);
  }
  const inserted = [...fresh.values()];
  const listId = randomUUID();
  const scriptText = JSON.stringify(script);
  return {
    listId,
    refs,
    listRow: {
      list_id: listId,
      thread_id: threadId,
      // A script without ranges stands alone, which also ends the chain a reader has to walk.
      base_id: usesBase(script) ? (baseId ?? null) : null,
      length: refs.length,
      script: scriptText,
    },
    inserted,
    messageRows: inserted.map((element) => ({
      thread_id: threadId,
      message_hash: element.ref,
      message_type: element.type,
      message: element.data,
    })),
    bytes:
      inserted.reduce((sum, element) => sum + element.data.byteLength, 0) +
      utf8.encode(scriptText).length,
  };
}
