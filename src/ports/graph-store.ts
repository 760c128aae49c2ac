import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
} from "@langchain/langgraph-checkpoint";

/**
 * The LangGraph store the server keeps (`/store/*`, and the `store` every run's graph gets),
 * partitioned into scopes no operation crosses: one per user when auth is on, one shared scope
 * otherwise. LangGraph's operations carry no TTL; the API's do, hence the optional fields.
 */

/** A put whose item expires `ttl` minutes after it was written (or last read with a refresh). */
export interface GraphPutOperation extends PutOperation {
  ttl?: number | null;
}

/** A get that, unless `refreshTtl` is false, restarts the found item's TTL. */
export interface GraphGetOperation extends GetOperation {
  refreshTtl?: boolean;
}

/** A search that, unless `refreshTtl` is false, restarts the TTL of the items it returns. */
export interface GraphSearchOperation extends SearchOperation {
  refreshTtl?: boolean;
}

export type GraphStoreOperation =
  | GraphGetOperation
  | GraphSearchOperation
  | GraphPutOperation
  | ListNamespacesOperation;

export type GraphStoreResult = Item | null | SearchItem[] | string[][] | undefined;

/** An adapter (memory, SQL) holding every scope's items. */
export interface GraphStoreBackend {
  /**
   * Runs the operations in order within `scope`, one result per operation (a put's is
   * undefined). Each put is one transaction; a later operation sees an earlier put.
   */
  batchIn(scope: string, operations: readonly GraphStoreOperation[]): Promise<GraphStoreResult[]>;
  /** Deletes every expired item of every scope; answers how many. */
  sweepExpired(): Promise<number>;
  /** Deletes every item of every scope (`POST /internal/truncate`); answers how many. */
  deleteAll(): Promise<number>;
  /** Releases what the backend holds (not a database it shares). */
  close(): Promise<void>;
}

/** The scope everything lives in when auth is off. */
export const SHARED_GRAPH_STORE_SCOPE = "";

/** A user's own scope when auth is on; the shared one when it is off. */
export function graphStoreScope(authEnabled: boolean, userId: string): string {
  return authEnabled ? userId : SHARED_GRAPH_STORE_SCOPE;
}

/** What one scope sees: a LangGraph `BaseStore`, plus the API's TTL options. */
export class ScopedGraphStore extends BaseStore {
  constructor(
    private readonly backend: GraphStoreBackend,
    readonly scope: string,
  ) {
    super();
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results = await this.backend.batchIn(this.scope, operations);
    // The backend answers per operation kind, which is exactly what OperationResults maps.
    return results as OperationResults<Op>;
  }

  async getItem(
    namespace: string[],
    key: string,
    options: { refreshTtl?: boolean } = {},
  ): Promise<Item | null> {
    const op: GraphGetOperation = { namespace, key, ...options };
    const [item] = await this.backend.batchIn(this.scope, [op]);
    return isItem(item) ? item : null;
  }

  async putItem(
    namespace: string[],
    key: string,
    value: Record<string, unknown> | null,
    options: { ttl?: number | null; index?: false | string[] } = {},
  ): Promise<void> {
    const op: GraphPutOperation = { namespace, key, value, ...options };
    await this.backend.batchIn(this.scope, [op]);
  }

  async searchItems(
    namespacePrefix: string[],
    options: Omit<GraphSearchOperation, "namespacePrefix"> = {},
  ): Promise<SearchItem[]> {
    const [items] = await this.backend.batchIn(this.scope, [{ namespacePrefix, ...options }]);
    return Array.isArray(items) ? items.filter(isItem) : [];
  }

  /** `listNamespaces` under the backend's label rules only (LangGraph's also refuse ":"). */
  async namespaces(options: ListNamespacesOptions = {}): Promise<string[][]> {
    const { prefix, suffix, maxDepth, limit = 100, offset = 0 } = options;
    const matchConditions: MatchCondition[] = [
      ...(prefix ? [{ matchType: "prefix" as const, path: prefix }] : []),
      ...(suffix ? [{ matchType: "suffix" as const, path: suffix }] : []),
    ];
    const op: ListNamespacesOperation = {
      limit,
      offset,
      ...(matchConditions.length > 0 ? { matchConditions } : {}),
      ...(maxDepth === undefined ? {} : { maxDepth }),
    };
    const [namespaces] = await this.backend.batchIn(this.scope, [op]);
    return Array.isArray(namespaces) ? namespaces.filter(isNamespace) : [];
  }
}

/** Options of `ScopedGraphStore.namespaces`, as `BaseStore.listNamespaces` takes them. */
export interface ListNamespacesOptions {
  prefix?: string[];
  suffix?: string[];
  maxDepth?: number;
  limit?: number;
  offset?: number;
}

function isNamespace(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((label) => typeof label === "string");
}

function isItem(value: unknown): value is Item {
  return typeof value === "object" && value !== null && "key" in value && "value" in value;
}
