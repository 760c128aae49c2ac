import { sql } from "kysely";
import type { SqlExecutor } from "../database.js";
import { chunked, LOOKUP_CHUNK } from "./list-store.js";

/** What a put must know from the database before it can plan its rows. */
export interface PutBase {
  /** `channel\0version` → list id (null for non-list blobs) of the versions already stored. */
  stored: Map<string, string | null>;
  /** The parent checkpoint's `{channel: list_id}`; empty when it has no (stored) parent. */
  parentLists: Record<string, string>;
  /** Whether any statement ran (a put with no versions and no parent needs none). */
  queried: boolean;
}

interface PutBaseRow {
  source: string;
  channel: string | null;
  version: string | null;
  value: string | null;
}

export function storedKey(channel: string, version: string): string {
  return `${channel}\u0000${version}`;
}

/**
 * Reads both in one statement (one round trip, where there used to be two): the blobs already
 * stored for the put's versions (a version names one value, so those are kept) and the parent's
 * list ids. The parent row is read even when the put writes no list: its own `list_refs` carries
 * the parent's over, or its child would find no base and store its lists in full.
 */
export async function readPutBase(
  trx: SqlExecutor,
  address: { threadId: string; ns: string },
  parentId: string | undefined,
  versions: readonly string[],
): Promise<PutBase> {
  const { threadId, ns } = address;
  const blobsIn = (part: readonly string[]) => sql`
    select 'blob' as source, channel, version, list_id as value from checkpoint_blobs
    where thread_id = ${threadId} and checkpoint_ns = ${ns} and version in (${sql.join(part)})`;
  const [firstChunk, ...moreChunks] = chunked([...new Set(versions)], LOOKUP_CHUNK);
  const first = [];
  if (firstChunk !== undefined) first.push(blobsIn(firstChunk));
  if (parentId !== undefined) {
    first.push(sql`
      select 'parent' as source, null as channel, null as version, list_refs as value
      from checkpoints
      where thread_id = ${threadId} and checkpoint_ns = ${ns} and checkpoint_id = ${parentId}`);
  }
  // A put names a few versions: more than one chunk of them is one more statement per chunk.
  const statements = first.length === 0 ? [] : [sql.join(first, sql` union all `)];
  statements.push(...moreChunks.map(blobsIn));
  const base: PutBase = { stored: new Map(), parentLists: {}, queried: statements.length > 0 };
  for (const statement of statements) {
    const { rows } = await sql<PutBaseRow>`${statement}`.execute(trx);
    for (const row of rows) {
      if (row.source === "parent") base.parentLists = parseListRefs(row.value);
      else if (row.channel !== null && row.version !== null) {
        base.stored.set(storedKey(row.channel, row.version), row.value);
      }
    }
  }
  return base;
}

/** A checkpoint row's `list_refs` column as `{channel: list_id}`. */
export function parseListRefs(text: string | null): Record<string, string> {
  if (text === null) return {};
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}
