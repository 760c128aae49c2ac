/**
 * Assistants: a graph plus the config, context and metadata its runs start from (LangGraph's
 * `Assistant`). Every create and update writes an immutable version row; the assistant row is
 * the version currently in use, which `setLatest` can move back to any earlier version.
 */

/** The fields a version fixes. */
export interface AssistantContent {
  graph_id: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export interface AssistantRow extends AssistantContent {
  assistant_id: string;
  /** The version in use (not necessarily the newest). */
  version: number;
  /** The creator, or null for an assistant every caller sees (a served graph's own). */
  user_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface AssistantVersionRow extends AssistantContent {
  assistant_id: string;
  version: number;
  created_at: string;
}

export interface NewAssistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  description?: string | null;
  config?: Record<string, unknown>;
  context?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  user_id?: string | null;
  created_at: string;
}

/** Fields a PATCH may change; `metadata` merges shallowly into the current metadata. */
export interface AssistantPatch {
  graph_id?: string;
  name?: string;
  description?: string | null;
  config?: Record<string, unknown>;
  context?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/**
 * Who is asking. `visibleTo` set: only assistants that user created, plus ownerless ones, exist
 * for the call; absent: every assistant (the server's own reads).
 */
export interface AssistantScope {
  visibleTo?: string;
}

export const ASSISTANT_SORT_COLUMNS = [
  "assistant_id",
  "graph_id",
  "name",
  "created_at",
  "updated_at",
] as const;
export type AssistantSortColumn = (typeof ASSISTANT_SORT_COLUMNS)[number];

export interface AssistantFilter extends AssistantScope {
  graphId?: string;
  /** Case-insensitive substring of the name. */
  name?: string;
  /** JSON containment (PostgreSQL `@>` semantics): nested objects match on a subset of keys. */
  metadata?: Record<string, unknown>;
}

export interface AssistantSearch extends AssistantFilter {
  limit?: number;
  offset?: number;
  /** Default `created_at`, ties broken by assistant id in the same direction. */
  sortBy?: AssistantSortColumn;
  /** Default `desc`. */
  sortOrder?: "asc" | "desc";
}

export interface AssistantVersionQuery extends AssistantScope {
  metadata?: Record<string, unknown>;
  limit?: number;
  offset?: number;
}

export type SetLatestResult =
  | { status: "updated"; assistant: AssistantRow }
  | { status: "assistant_not_found" }
  | { status: "version_not_found" };

export interface AssistantStore {
  /** Inserts the assistant and its version 1; `{created: false}` with the row already there. */
  create(assistant: NewAssistant): Promise<{ assistant: AssistantRow; created: boolean }>;
  get(assistantId: string, scope?: AssistantScope): Promise<AssistantRow | null>;
  /**
   * Writes version max+1 from the current row and the patch (even an empty one) and makes it
   * the one in use, in one transaction. Null when not found / not visible.
   */
  update(
    assistantId: string,
    patch: AssistantPatch,
    now: string,
    scope?: AssistantScope,
  ): Promise<AssistantRow | null>;
  /** Deletes the assistant and all its versions; false when not found / not visible. */
  delete(assistantId: string, scope?: AssistantScope): Promise<boolean>;
  search(query: AssistantSearch): Promise<AssistantRow[]>;
  count(query: AssistantFilter): Promise<number>;
  /** Newest version first; empty when the assistant is not found / not visible. */
  versions(assistantId: string, query?: AssistantVersionQuery): Promise<AssistantVersionRow[]>;
  /** Makes an existing version the one in use (its content becomes the assistant's). */
  setLatest(
    assistantId: string,
    version: number,
    now: string,
    scope?: AssistantScope,
  ): Promise<SetLatestResult>;
  close(): Promise<void>;
}

/** Whether `value` contains `wanted` as PostgreSQL's jsonb `@>` decides it. */
export function jsonContains(value: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted)) {
    return Array.isArray(value) && wanted.every((item) => value.some((v) => jsonContains(v, item)));
  }
  if (typeof wanted === "object" && wanted !== null) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    return Object.entries(wanted).every(
      ([key, item]) => Object.hasOwn(record, key) && jsonContains(record[key], item),
    );
  }
  return value === wanted;
}

/** Whether the scope lets its caller see a row with this owner. */
export function isVisible(userId: string | null, scope: AssistantScope = {}): boolean {
  return scope.visibleTo === undefined || userId === null || userId === scope.visibleTo;
}

/** Whether a row passes a search filter (scope, graph, name substring, metadata containment). */
export function matchesAssistantFilter(row: AssistantRow, filter: AssistantFilter): boolean {
  return (
    isVisible(row.user_id, filter) &&
    (filter.graphId === undefined || row.graph_id === filter.graphId) &&
    (filter.name === undefined || row.name.toLowerCase().includes(filter.name.toLowerCase())) &&
    (filter.metadata === undefined || jsonContains(row.metadata, filter.metadata))
  );
}

/** The order `search` returns: the sort column, then the assistant id, both in one direction. */
export function compareAssistants(
  sortBy: AssistantSortColumn = "created_at",
  sortOrder: "asc" | "desc" = "desc",
): (a: AssistantRow, b: AssistantRow) => number {
  const sign = sortOrder === "asc" ? 1 : -1;
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return (a, b) => sign * (text(a[sortBy], b[sortBy]) || text(a.assistant_id, b.assistant_id));
}

/** The content of the version a patch writes over the row in use. */
export function patchedContent(row: AssistantContent, patch: AssistantPatch): AssistantContent {
  return {
    graph_id: patch.graph_id ?? row.graph_id,
    name: patch.name ?? row.name,
    description: patch.description === undefined ? row.description : patch.description,
    config: patch.config ?? row.config,
    context: patch.context ?? row.context,
    metadata: patch.metadata === undefined ? row.metadata : { ...row.metadata, ...patch.metadata },
  };
}
