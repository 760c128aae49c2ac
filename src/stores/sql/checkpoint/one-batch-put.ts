import type { WriteFence } from "../../../ports/write-fence.js";
import type { SqlDatabase } from "../database.js";
import { checkFenceRead, fenceReadQuery, ownedByWriter } from "../sql-fence.js";
import { type EncodedCheckpoint, type PlannedPut, planPut } from "./checkpoint-writer.js";
import { planListVersion } from "./list-plan.js";
import type { ListStore } from "./list-store.js";
import { oneBatchPutStatements, type PutGuard } from "./put-statements.js";

const PARENT_STORED =
  "exists (select 1 from checkpoints where thread_id = ? and checkpoint_ns = ? and checkpoint_id = ?)";

/**
 * SQLite: a put as one self-contained batch — one message to the worker, where the general path
 * takes two or three (the fence's read, the stored-versions read, the inserts with the COMMIT).
 * It needs no read because the caller knows the parent's list ids (it wrote or read that
 * checkpoint; rows are immutable) and channel versions carry a random fraction, so a new version
 * is never stored already (and one that were would be kept by `on conflict do nothing`).
 *
 * What a read under the transaction used to ensure, the batch's guard checks as it writes: the
 * run still owns its fence, and the parent checkpoint still exists (a deleted thread must not
 * get a child whose list bases are gone). A lost fence throws as on the general path; a missing
 * parent writes nothing and returns null, and the caller takes the general path, which reads.
 */
export async function putInOneBatch(
  database: SqlDatabase,
  lists: ListStore,
  put: EncodedCheckpoint,
  parentLists: Record<string, string>,
  fence: WriteFence | undefined,
): Promise<PlannedPut | null> {
  const { threadId } = put.address;
  const planned = await planPut(put, { stored: new Map(), parentLists }, (baseId, elements) =>
    // A base list not in memory is read outside the batch: list rows never change.
    planListVersion(database.db, lists, threadId, baseId, elements),
  );
  const guard = putGuard(put, fence);
  const statements = oneBatchPutStatements(planned.rows, guard);
  const results = await database.executeBatch(
    fence === undefined ? statements : [fenceReadQuery("sqlite", fence), ...statements],
  );
  if (fence !== undefined) checkFenceRead(results[0], fence, "put a checkpoint");
  const upsert = results.at(-1);
  if (guard !== null && (upsert?.numAffectedRows ?? 0n) === 0n) return null;
  return planned;
}

function putGuard(put: EncodedCheckpoint, fence: WriteFence | undefined): PutGuard | null {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (fence !== undefined) {
    conditions.push(ownedByWriter("sqlite", 0));
    params.push(fence.runId, fence.workerId);
  }
  if (put.parentId !== undefined) {
    conditions.push(PARENT_STORED);
    params.push(put.address.threadId, put.address.ns, put.parentId);
  }
  return conditions.length === 0 ? null : { condition: conditions.join(" and "), params };
}
