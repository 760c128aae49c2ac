import type { Item, ListNamespacesOperation, SearchItem } from "@langchain/langgraph-checkpoint";
import { type Expression, type Selectable, type SqlBool, sql } from "kysely";
import type {
  GraphGetOperation,
  GraphPutOperation,
  GraphSearchOperation,
  GraphStoreBackend,
  GraphStoreOperation,
  GraphStoreResult,
} from "../../../ports/graph-store.js";
import { fromDbTimestamp, toNumber } from "../codec.js";
import type { SqlDatabase } from "../database.js";
import type { GraphStoreItemsTable } from "../schema.js";
import { SqlStore, type SqlStoreOptions } from "../sql-store.js";
import {
  assertOperation,
  classify,
  expiryOf,
  listNamespaces,
  literalPrefix,
  matchesFilter,
  namespaceOf,
  namespaceText,
} from "./graph-item-rules.js";

type Row = Selectable<GraphStoreItemsTable>;

export interface SqlGraphStoreOptions extends SqlStoreOptions {
  /** Rows a filtered search reads per query while it looks for matches (default 200). */
  filterScanPage?: number;
}

/**
 * The graph store in the Fawn database (SQLite or PostgreSQL), table `graph_store_items`.
 * Operations run in order; a put (its expired predecessor removed, then an upsert) is one
 * transaction, sent on SQLite as one message. Prefix, scope and expiry are SQL conditions;
 * value filters are the shared rules applied to rows read page by page in search order.
 */
export class SqlGraphStore extends SqlStore implements GraphStoreBackend {
  private readonly scanPage: number;

  constructor(database: SqlDatabase, options: SqlGraphStoreOptions = {}) {
    super(database, options);
    this.scanPage = options.filterScanPage ?? 200;
  }

  async batchIn(
    scope: string,
    operations: readonly GraphStoreOperation[],
  ): Promise<GraphStoreResult[]> {
    const classified = operations.map(classify);
    classified.forEach(assertOperation);
    return this.wrap("use the graph store", async () => {
      const results: GraphStoreResult[] = [];
      for (const c of classified) {
        const now = this.clock.now();
        if (c.kind === "get") results.push(await this.get(scope, c.op, now));
        else if (c.kind === "put") results.push(await this.put(scope, c.op, now));
        else if (c.kind === "search") results.push(await this.search(scope, c.op, now));
        else results.push(await this.list(scope, c.op, now));
      }
      return results;
    });
  }

  sweepExpired(): Promise<number> {
    return this.wrap("sweep expired graph store items", async () => {
      const result = await this.db
        .deleteFrom("graph_store_items")
        .where("expires_at", "<=", this.clock.now().toISOString())
        .executeTakeFirst();
      return toNumber(result.numDeletedRows);
    });
  }

  deleteAll(): Promise<number> {
    return this.wrap("delete every graph store item", async () => {
      const result = await this.db.deleteFrom("graph_store_items").executeTakeFirst();
      return toNumber(result.numDeletedRows);
    });
  }

  private async get(scope: string, op: GraphGetOperation, now: Date): Promise<Item | null> {
    const row = await this.db
      .selectFrom("graph_store_items")
      .selectAll()
      .where("scope", "=", scope)
      .where("namespace", "=", namespaceText(op.namespace))
      .where("key", "=", op.key)
      .where(live(now))
      .executeTakeFirst();
    if (row === undefined) return null;
    if (op.refreshTtl !== false) await this.refresh([row], now);
    return itemOf(row);
  }

  private async put(scope: string, op: GraphPutOperation, now: Date): Promise<undefined> {
    const namespace = namespaceText(op.namespace);
    const sameItem = this.db
      .deleteFrom("graph_store_items")
      .where("scope", "=", scope)
      .where("namespace", "=", namespace)
      .where("key", "=", op.key);
    if (op.value === null) {
      await sameItem.execute();
      return undefined;
    }
    const at = now.toISOString();
    const ttl = op.ttl ?? null;
    // An expired row still present (not swept yet) is gone: the put creates the item anew.
    const dropExpired = sameItem.where("expires_at", "<=", at).compile();
    const upsert = this.db
      .insertInto("graph_store_items")
      .values({
        scope,
        namespace,
        key: op.key,
        value: JSON.stringify(op.value),
        created_at: at,
        updated_at: at,
        ttl_minutes: ttl,
        expires_at: expiryOf(now, ttl)?.toISOString() ?? null,
      })
      .onConflict((oc) =>
        oc.columns(["scope", "namespace", "key"]).doUpdateSet((eb) => ({
          value: eb.ref("excluded.value"),
          updated_at: eb.ref("excluded.updated_at"),
          ttl_minutes: eb.ref("excluded.ttl_minutes"),
          expires_at: eb.ref("excluded.expires_at"),
        })),
      )
      .compile();
    await this.database.executeBatch([dropExpired, upsert]);
    return undefined;
  }

  private async search(scope: string, op: GraphSearchOperation, now: Date): Promise<SearchItem[]> {
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    const rows = this.db
      .selectFrom("graph_store_items")
      .selectAll()
      .where("scope", "=", scope)
      .where(live(now))
      .where(underPrefix(op.namespacePrefix))
      .orderBy("updated_at", "desc")
      .orderBy("namespace")
      .orderBy("key");
    let page: Row[];
    const filter = op.filter;
    if (filter === undefined || Object.keys(filter).length === 0) {
      page = await rows.limit(limit).offset(offset).execute();
    } else {
      page = [];
      let skipped = 0;
      for (let start = 0; page.length < limit; start += this.scanPage) {
        const scanned = await rows.limit(this.scanPage).offset(start).execute();
        for (const row of scanned) {
          if (page.length >= limit) break;
          if (!matchesFilter(rowValue(row), filter)) continue;
          if (skipped < offset) skipped += 1;
          else page.push(row);
        }
        if (scanned.length < this.scanPage) break;
      }
    }
    if (op.refreshTtl !== false) await this.refresh(page, now);
    // No vector index is configured: a `query` ranks nothing, as in InMemoryStore without one.
    return page.map((row) => ({ ...itemOf(row), score: undefined }));
  }

  private async list(scope: string, op: ListNamespacesOperation, now: Date): Promise<string[][]> {
    const rows = await this.db
      .selectFrom("graph_store_items")
      .select("namespace")
      .distinct()
      .where("scope", "=", scope)
      .where(live(now))
      .where(underPrefix(literalPrefix(op.matchConditions)))
      .execute();
    return listNamespaces(
      rows.map((row) => row.namespace),
      op,
    );
  }

  /** Restarts the TTL of the rows that have one (one transaction). */
  private async refresh(rows: readonly Row[], now: Date): Promise<void> {
    const updates = rows.flatMap((row) => {
      if (row.ttl_minutes === null) return [];
      const expiresAt = expiryOf(now, toNumber(row.ttl_minutes))?.toISOString() ?? null;
      return [
        this.db
          .updateTable("graph_store_items")
          .set({ expires_at: expiresAt })
          .where("scope", "=", row.scope)
          .where("namespace", "=", row.namespace)
          .where("key", "=", row.key)
          .compile(),
      ];
    });
    await this.database.executeBatch(updates);
  }
}

/** Not expired at `now` (an ISO parameter, read as `timestamptz` on PostgreSQL). */
function live(now: Date): Expression<SqlBool> {
  return sql<SqlBool>`(expires_at is null or expires_at > ${now.toISOString()})`;
}

/** At or under `prefix`, compared by characters (labels hold no dot; no LIKE escaping needed). */
function underPrefix(prefix: readonly string[]): Expression<SqlBool> {
  if (prefix.length === 0) return sql<SqlBool>`1 = 1`;
  const joined = namespaceText(prefix);
  const dotted = `${joined}.`;
  return sql<SqlBool>`(namespace = ${joined} or substr(namespace, 1, length(cast(${dotted} as text))) = ${dotted})`;
}

function rowValue(row: Row): Record<string, unknown> {
  const parsed: unknown = JSON.parse(row.value);
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

function itemOf(row: Row): Item {
  return {
    namespace: namespaceOf(row.namespace),
    key: row.key,
    value: rowValue(row),
    createdAt: new Date(fromDbTimestamp(row.created_at)),
    updatedAt: new Date(fromDbTimestamp(row.updated_at)),
  };
}
