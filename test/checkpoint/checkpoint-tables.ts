/** Test helpers that look at the checkpoint tables directly. */
import { parseScript } from "../../src/stores/sql/checkpoint/list-script.js";
import type { SqlDatabase } from "../../src/stores/sql/database.js";

export const CHECKPOINT_TABLES = [
  "checkpoints",
  "checkpoint_blobs",
  "checkpoint_lists",
  "checkpoint_messages",
  "checkpoint_writes",
] as const;

export type CheckpointTable = (typeof CHECKPOINT_TABLES)[number];

export async function clearCheckpointTables(database: SqlDatabase): Promise<void> {
  for (const table of CHECKPOINT_TABLES) await database.db.deleteFrom(table).execute();
}

/** Rows per checkpoint table, for one thread or for all. */
export async function countRows(
  database: SqlDatabase,
  threadId?: string,
): Promise<Record<CheckpointTable, number>> {
  const entries = await Promise.all(
    CHECKPOINT_TABLES.map(async (table) => {
      const row = await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .$if(threadId !== undefined, (qb) => qb.where("thread_id", "=", threadId ?? ""))
        .executeTakeFirstOrThrow();
      return [table, Number(row.n)] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<CheckpointTable, number>;
}

/**
 * Referential integrity of the whole checkpoint store, as a list of problems (empty when sound):
 * every list's base exists in its thread, every list blob and `list_refs` entry names an existing
 * list, every literal message ref has its message row, and every message row is used by some
 * list of its thread (no orphans).
 */
export async function integrityProblems(database: SqlDatabase): Promise<string[]> {
  const problems: string[] = [];
  const lists = await database.db
    .selectFrom("checkpoint_lists")
    .select(["list_id", "thread_id", "base_id", "script"])
    .execute();
  const listThread = new Map(lists.map((list) => [list.list_id, list.thread_id]));
  const messages = await database.db
    .selectFrom("checkpoint_messages")
    .select(["thread_id", "message_hash"])
    .execute();
  const stored = new Set(messages.map((m) => `${m.thread_id}/${m.message_hash}`));
  const used = new Set<string>();
  for (const list of lists) {
    if (list.base_id !== null && listThread.get(list.base_id) !== list.thread_id) {
      problems.push(`list ${list.list_id} has a missing base ${list.base_id}`);
    }
    for (const segment of parseScript(list.script)) {
      if (typeof segment !== "string") continue;
      const key = `${list.thread_id}/${segment}`;
      used.add(key);
      if (!stored.has(key)) problems.push(`list ${list.list_id} uses missing message ${segment}`);
    }
  }
  for (const key of stored) {
    if (!used.has(key)) problems.push(`message ${key} is not used by any list (orphan)`);
  }
  const blobs = await database.db
    .selectFrom("checkpoint_blobs")
    .select(["thread_id", "list_id"])
    .where("kind", "=", "list")
    .execute();
  for (const blob of blobs) {
    if (blob.list_id === null || listThread.get(blob.list_id) !== blob.thread_id) {
      problems.push(`a list blob of ${blob.thread_id} names a missing list ${blob.list_id}`);
    }
  }
  const checkpoints = await database.db
    .selectFrom("checkpoints")
    .select(["thread_id", "checkpoint_id", "list_refs"])
    .execute();
  for (const checkpoint of checkpoints) {
    const refs: Record<string, string> = JSON.parse(checkpoint.list_refs);
    for (const listId of Object.values(refs)) {
      if (listThread.get(listId) !== checkpoint.thread_id) {
        problems.push(`checkpoint ${checkpoint.checkpoint_id} names a missing list ${listId}`);
      }
    }
  }
  return problems;
}
