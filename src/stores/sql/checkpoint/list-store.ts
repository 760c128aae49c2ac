import { sql } from "kysely";
import type { SqlExecutor } from "../database.js";
import { ListCorruptError, ListMaterializer, type ListNode, parseScript } from "./list-script.js";
import type { EncodedElement } from "./list-values.js";
import { WeightedLru } from "./weighted-lru.js";

/** A stored list element (usually a message): its ref, serde type and bytes. */
export type StoredElement = EncodedElement;

export interface ListStoreOptions {
  /** Refs kept in memory across materialized lists (default 500,000). */
  cachedRefs?: number;
  /** Script segments of list rows kept in memory, so a chain is fetched once (default 500,000). */
  cachedSegments?: number;
  /** Bytes of serialized elements kept in memory (default 32 MiB). */
  cachedElementBytes?: number;
}

/** Chain rows fetched per round trip start small (the next base is usually cached) and grow. */
const FIRST_CHAIN_BATCH = 4;
const MAX_CHAIN_BATCH = 4096;
/** Rows per `in (...)` lookup: far below SQLite's and PostgreSQL's parameter limits. */
export const LOOKUP_CHUNK = 500;

interface ListRow {
  list_id: string;
  base_id: string | null;
  length: number | string;
  script: string;
}

export function* chunked<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Reads list versions and their elements. Both caches hold immutable data only: a list row never
 * changes once written and its id is a fresh UUID; an element is keyed by thread and content
 * hash. So nothing here can go stale, even when another process deletes the thread.
 */
export class ListStore {
  private readonly refsById: WeightedLru<string, readonly string[]>;
  private readonly nodes: WeightedLru<string, ListNode>;
  private readonly elements: WeightedLru<string, StoredElement>;

  constructor(options: ListStoreOptions = {}) {
    this.refsById = new WeightedLru(options.cachedRefs ?? 500_000, (refs) => refs.length + 1);
    this.nodes = new WeightedLru(
      options.cachedSegments ?? 500_000,
      (node) => node.script.length + 4,
    );
    this.elements = new WeightedLru(
      options.cachedElementBytes ?? 32 * 1024 * 1024,
      (element) => element.data.byteLength + 64,
    );
  }

  /** Records a list written by this process (after its transaction committed). */
  remember(listId: string, refs: readonly string[]): void {
    this.refsById.set(listId, refs);
  }

  rememberElement(threadId: string, ref: string, element: StoredElement): void {
    this.elements.set(elementKey(threadId, ref), element);
  }

  /**
   * The refs of list `listId`, or undefined when no such row exists. A cold list walks its base
   * chain (fetched in growing batches, kept in memory so the next cold list does not fetch it
   * again) only down to the first list whose refs are known.
   */
  async refs(trx: SqlExecutor, listId: string): Promise<readonly string[] | undefined> {
    const cached = this.refsById.get(listId);
    if (cached !== undefined) return cached;
    // Rows fetched by this call stay reachable even if the shared cache evicts them meanwhile.
    const fetched = new Map<string, ListNode>();
    const nodeOf = (id: string): ListNode | undefined => fetched.get(id) ?? this.nodes.get(id);
    let batch = FIRST_CHAIN_BATCH;
    if (nodeOf(listId) === undefined) await this.fetchChain(trx, listId, batch, fetched);
    const head = nodeOf(listId);
    if (head === undefined) return undefined;
    const materializer = new ListMaterializer(head);
    for (;;) {
      const step = materializer.advance(nodeOf, (id) => this.refsById.get(id));
      if (step.done) {
        this.refsById.set(listId, step.refs);
        return step.refs;
      }
      batch = Math.min(batch * 4, MAX_CHAIN_BATCH);
      if ((await this.fetchChain(trx, step.need, batch, fetched)) === 0) {
        throw new ListCorruptError(`List ${listId} needs base ${step.need}, which is missing.`);
      }
    }
  }

  /** The stored elements for `refs` of one thread, from memory where possible. */
  async elementsOf(
    trx: SqlExecutor,
    threadId: string,
    refs: Iterable<string>,
  ): Promise<Map<string, StoredElement>> {
    const found = new Map<string, StoredElement>();
    const missing: string[] = [];
    for (const ref of refs) {
      if (found.has(ref)) continue;
      const cached = this.elements.get(elementKey(threadId, ref));
      if (cached === undefined) missing.push(ref);
      else found.set(ref, cached);
    }
    for (const part of chunked([...new Set(missing)], LOOKUP_CHUNK)) {
      const rows = await trx
        .selectFrom("checkpoint_messages")
        .select(["message_hash", "message_type", "message"])
        .where("thread_id", "=", threadId)
        .where("message_hash", "in", part)
        .execute();
      for (const row of rows) {
        const element = { ref: row.message_hash, type: row.message_type, data: row.message };
        found.set(row.message_hash, element);
        this.elements.set(elementKey(threadId, row.message_hash), element);
      }
    }
    for (const ref of missing) {
      if (!found.has(ref)) throw new ListCorruptError(`Message ${ref} of a list is missing.`);
    }
    return found;
  }

  /** Up to `limit` rows of the chain from `listId` (itself, its base, …) into the node cache. */
  private async fetchChain(
    trx: SqlExecutor,
    listId: string,
    limit: number,
    into: Map<string, ListNode>,
  ): Promise<number> {
    const result = await sql<ListRow>`
      with recursive chain (list_id, base_id, length, script, depth) as (
        select list_id, base_id, length, script, 1
        from checkpoint_lists where list_id = ${listId}
        union all
        select l.list_id, l.base_id, l.length, l.script, chain.depth + 1
        from checkpoint_lists l join chain on l.list_id = chain.base_id
        where chain.depth < ${limit}
      )
      select list_id, base_id, length, script from chain`.execute(trx);
    for (const row of result.rows) {
      const node: ListNode = {
        id: row.list_id,
        baseId: row.base_id,
        length: Number(row.length),
        script: parseScript(row.script),
      };
      into.set(node.id, node);
      this.nodes.set(node.id, node);
    }
    return result.rows.length;
  }
}

function elementKey(threadId: string, ref: string): string {
  return `${threadId}\u0000${ref}`;
}
