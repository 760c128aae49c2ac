import type { Item, SearchItem } from "@langchain/langgraph-checkpoint";
import { type Clock, systemClock } from "../../core/clock.js";
import type {
  GraphGetOperation,
  GraphPutOperation,
  GraphSearchOperation,
  GraphStoreBackend,
  GraphStoreOperation,
  GraphStoreResult,
} from "../../ports/graph-store.js";
import {
  assertOperation,
  classify,
  compareForSearch,
  expiryOf,
  listNamespaces,
  matchesFilter,
  namespaceText,
  underPrefix,
} from "../sql/graph-store/graph-item-rules.js";

interface Entry {
  scope: string;
  namespace: string[];
  namespaceText: string;
  key: string;
  /** The value as JSON text, as the SQL adapter keeps it: both hand back the same values. */
  json: string;
  value: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  ttlMinutes: number | null;
  expiresAt: Date | null;
}

/**
 * The graph store in process memory, for `memory:` stores. LangGraph's `InMemoryStore` has no
 * TTL and keeps listing a namespace after its last item is deleted, so this adapter implements
 * the shared rules (`graph-item-rules.ts`) itself; values go through JSON, as in the database.
 */
export class MemoryGraphStore implements GraphStoreBackend {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async batchIn(
    scope: string,
    operations: readonly GraphStoreOperation[],
  ): Promise<GraphStoreResult[]> {
    const classified = operations.map(classify);
    classified.forEach(assertOperation);
    const results: GraphStoreResult[] = [];
    for (const c of classified) {
      const now = this.clock.now();
      if (c.kind === "get") results.push(this.get(scope, c.op, now));
      else if (c.kind === "put") results.push(this.put(scope, c.op, now));
      else if (c.kind === "search") results.push(this.search(scope, c.op, now));
      else results.push(listNamespaces(this.liveNamespaces(scope, now), c.op));
    }
    return results;
  }

  async sweepExpired(): Promise<number> {
    const now = this.clock.now();
    let swept = 0;
    for (const [id, entry] of this.entries) {
      if (expired(entry, now)) {
        this.entries.delete(id);
        swept += 1;
      }
    }
    return swept;
  }

  async deleteAll(): Promise<number> {
    const count = this.entries.size;
    this.entries.clear();
    return count;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private get(scope: string, op: GraphGetOperation, now: Date): Item | null {
    const entry = this.entries.get(idOf(scope, namespaceText(op.namespace), op.key));
    if (entry === undefined || expired(entry, now)) return null;
    if (op.refreshTtl !== false) refresh(entry, now);
    return itemOf(entry);
  }

  private put(scope: string, op: GraphPutOperation, now: Date): undefined {
    const text = namespaceText(op.namespace);
    const id = idOf(scope, text, op.key);
    if (op.value === null) {
      this.entries.delete(id);
      return undefined;
    }
    const previous = this.entries.get(id);
    const live = previous !== undefined && !expired(previous, now);
    const ttlMinutes = op.ttl ?? null;
    const json = JSON.stringify(op.value);
    this.entries.set(id, {
      scope,
      namespace: [...op.namespace],
      namespaceText: text,
      key: op.key,
      json,
      value: JSON.parse(json),
      createdAt: live ? previous.createdAt : now,
      updatedAt: now,
      ttlMinutes,
      expiresAt: expiryOf(now, ttlMinutes),
    });
    return undefined;
  }

  private search(scope: string, op: GraphSearchOperation, now: Date): SearchItem[] {
    const matching = [...this.entries.values()]
      .filter(
        (entry) =>
          entry.scope === scope &&
          !expired(entry, now) &&
          underPrefix(entry.namespaceText, op.namespacePrefix) &&
          matchesFilter(entry.value, op.filter),
      )
      .sort(compareForSearch);
    const offset = op.offset ?? 0;
    const page = matching.slice(offset, offset + (op.limit ?? 10));
    if (op.refreshTtl !== false) for (const entry of page) refresh(entry, now);
    // No vector index is configured: a `query` ranks nothing, as in InMemoryStore without one.
    return page.map((entry) => ({ ...itemOf(entry), score: undefined }));
  }

  private liveNamespaces(scope: string, now: Date): Set<string> {
    const namespaces = new Set<string>();
    for (const entry of this.entries.values()) {
      if (entry.scope === scope && !expired(entry, now)) namespaces.add(entry.namespaceText);
    }
    return namespaces;
  }
}

function idOf(scope: string, namespace: string, key: string): string {
  return JSON.stringify([scope, namespace, key]);
}

function expired(entry: Entry, now: Date): boolean {
  return entry.expiresAt !== null && entry.expiresAt.getTime() <= now.getTime();
}

function refresh(entry: Entry, now: Date): void {
  if (entry.ttlMinutes !== null) entry.expiresAt = expiryOf(now, entry.ttlMinutes);
}

function itemOf(entry: Entry): Item {
  return {
    namespace: [...entry.namespace],
    key: entry.key,
    value: JSON.parse(entry.json),
    createdAt: new Date(entry.createdAt),
    updatedAt: new Date(entry.updatedAt),
  };
}
