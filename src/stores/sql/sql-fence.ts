import { CompiledQuery, type QueryResult } from "kysely";
import { ownershipLost, type WriteFence } from "../../ports/write-fence.js";
import type { SqlExecutor } from "./database.js";
import type { SqlDialectName } from "./sql-dialect-name.js";

/**
 * The fence's read, first in the write's transaction: the owner it saw, and on PostgreSQL a share
 * lock on the run's row until commit, so a takeover (an UPDATE of that row) waits for the write or
 * the write sees the new owner. SQLite's write transaction serializes both anyway.
 */
export function fenceReadQuery(dialect: SqlDialectName, fence: WriteFence): CompiledQuery {
  return dialect === "sqlite"
    ? CompiledQuery.raw("select owner_worker_id from runs where run_id = ?", [fence.runId])
    : CompiledQuery.raw("select owner_worker_id from runs where run_id = $1 for share", [
        fence.runId,
      ]);
}

/**
 * The write fence inside an INSERT … SELECT: rows are inserted only while the run's row names the
 * writer as its owner. Its two parameters (run id, worker id) come last; `first` is PostgreSQL's
 * number of the first.
 */
export function ownedByWriter(dialect: SqlDialectName, first: number): string {
  const [run, worker] = dialect === "sqlite" ? ["?", "?"] : [`$${first}`, `$${first + 1}`];
  return `exists (select 1 from runs where run_id = ${run} and owner_worker_id = ${worker})`;
}

/** Throws unless the fence's read found the writer as the owner. */
export function checkFenceRead(
  result: QueryResult<unknown> | undefined,
  fence: WriteFence,
  what: string,
): void {
  const [row] = (result?.rows ?? []) as Array<{ owner_worker_id: string | null }>;
  if (row?.owner_worker_id !== fence.workerId) throw ownershipLost(fence, what);
}

/** The fence checked inside an open transaction, before the write's own statements. */
export async function assertOwnerInTransaction(
  trx: SqlExecutor,
  dialect: SqlDialectName,
  fence: WriteFence,
  what: string,
): Promise<void> {
  checkFenceRead(await trx.executeQuery(fenceReadQuery(dialect, fence)), fence, what);
}
