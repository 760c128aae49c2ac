import { isDeepStrictEqual } from "node:util";
import type { ListNamespacesOperation, MatchCondition } from "@langchain/langgraph-checkpoint";
import { ValidationError } from "../../../core/errors.js";
import type {
  GraphGetOperation,
  GraphPutOperation,
  GraphSearchOperation,
  GraphStoreOperation,
} from "../../../ports/graph-store.js";

/**
 * The store semantics every graph-store adapter shares (memory and SQL answer alike): which
 * operation an object is, what a namespace may be, how filters match, how namespaces list and
 * items order. Labels never contain ".", so the dot-joined text of a namespace is unambiguous.
 */

export type ClassifiedOperation =
  | { kind: "get"; op: GraphGetOperation }
  | { kind: "put"; op: GraphPutOperation }
  | { kind: "search"; op: GraphSearchOperation }
  | { kind: "list"; op: ListNamespacesOperation };

/** Labels of one namespace (a bound on the work one item's path costs). */
export const MAX_NAMESPACE_DEPTH = 32;
/** UTF-8 bytes of a namespace's dot-joined text, and of a key: both sit in the primary key. */
export const MAX_NAMESPACE_BYTES = 1000;
export const MAX_KEY_BYTES = 1000;

export function classify(op: GraphStoreOperation): ClassifiedOperation {
  if ("namespacePrefix" in op) return { kind: "search", op };
  if ("namespace" in op && "value" in op) return { kind: "put", op };
  if ("namespace" in op) return { kind: "get", op };
  return { kind: "list", op };
}

/** Throws a 422 unless every label is a non-empty string without "." and the path is bounded. */
export function assertNamespace(namespace: readonly string[], allowEmpty: boolean): void {
  if (namespace.length === 0 && !allowEmpty) {
    throw new ValidationError("A namespace needs at least one label.");
  }
  if (namespace.length > MAX_NAMESPACE_DEPTH) {
    throw new ValidationError(`A namespace has at most ${MAX_NAMESPACE_DEPTH} labels.`);
  }
  for (const label of namespace) {
    if (typeof label !== "string" || label === "" || label.includes(".")) {
      throw new ValidationError(
        "Namespace labels must be non-empty strings without periods ('.').",
      );
    }
  }
  if (Buffer.byteLength(namespaceText(namespace)) > MAX_NAMESPACE_BYTES) {
    throw new ValidationError(`A namespace is at most ${MAX_NAMESPACE_BYTES} bytes joined.`);
  }
}

export function assertKey(key: string): void {
  if (typeof key !== "string" || Buffer.byteLength(key) > MAX_KEY_BYTES) {
    throw new ValidationError(`An item key is a string of at most ${MAX_KEY_BYTES} bytes.`);
  }
}

/** Checks what an operation names before any adapter touches storage. */
export function assertOperation(classified: ClassifiedOperation): void {
  switch (classified.kind) {
    case "get":
      assertNamespace(classified.op.namespace, true);
      assertKey(classified.op.key);
      return;
    case "put":
      assertNamespace(classified.op.namespace, classified.op.value === null);
      assertKey(classified.op.key);
      assertValue(classified.op.value);
      assertTtl(classified.op.ttl);
      return;
    case "search":
      assertNamespace(classified.op.namespacePrefix, true);
      return;
    case "list":
      for (const condition of classified.op.matchConditions ?? []) {
        if (condition.path.length > MAX_NAMESPACE_DEPTH) {
          throw new ValidationError(`A namespace has at most ${MAX_NAMESPACE_DEPTH} labels.`);
        }
      }
  }
}

function assertValue(value: unknown): void {
  if (value === null) return;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError("An item's value is a JSON object (or null to delete it).");
  }
}

function assertTtl(ttl: number | null | undefined): void {
  if (ttl === null || ttl === undefined) return;
  if (!Number.isFinite(ttl) || ttl <= 0) {
    throw new ValidationError("An item's ttl is a positive number of minutes (or null).");
  }
}

export function namespaceText(namespace: readonly string[]): string {
  return namespace.join(".");
}

export function namespaceOf(text: string): string[] {
  return text === "" ? [] : text.split(".");
}

/** Whether `text` (a stored namespace) lies at or under `prefix`. */
export function underPrefix(text: string, prefix: readonly string[]): boolean {
  if (prefix.length === 0) return true;
  const joined = namespaceText(prefix);
  return text === joined || text.startsWith(`${joined}.`);
}

/** When an item written (or refreshed) at `now` with `ttl` minutes expires; null: never. */
export function expiryOf(now: Date, ttl: number | null | undefined): Date | null {
  return ttl === null || ttl === undefined ? null : new Date(now.getTime() + ttl * 60_000);
}

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

function isOperatorObject(condition: unknown): condition is Record<string, unknown> {
  if (typeof condition !== "object" || condition === null || Array.isArray(condition)) return false;
  const keys = Object.keys(condition);
  return keys.length > 0 && keys.every((key) => OPERATORS.has(key));
}

/**
 * LangGraph's filter: every top-level key must match, by (deep) equality or through the
 * `$eq/$ne/$gt/$gte/$lt/$lte/$in/$nin` operators; comparisons are numeric, as InMemoryStore's.
 */
export function matchesFilter(
  value: Record<string, unknown>,
  filter: Record<string, unknown> | undefined,
): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(([field, condition]) => {
    const actual = Object.hasOwn(value, field) ? value[field] : undefined;
    if (!isOperatorObject(condition)) return isDeepStrictEqual(actual, condition);
    return Object.entries(condition).every(([operator, operand]) =>
      compare(operator, actual, operand),
    );
  });
}

function compare(operator: string, actual: unknown, operand: unknown): boolean {
  switch (operator) {
    case "$eq":
      return isDeepStrictEqual(actual, operand);
    case "$ne":
      return !isDeepStrictEqual(actual, operand);
    case "$gt":
      return Number(actual) > Number(operand);
    case "$gte":
      return Number(actual) >= Number(operand);
    case "$lt":
      return Number(actual) < Number(operand);
    case "$lte":
      return Number(actual) <= Number(operand);
    case "$in":
      return Array.isArray(operand) && operand.some((o) => isDeepStrictEqual(actual, o));
    case "$nin":
      return !Array.isArray(operand) || !operand.some((o) => isDeepStrictEqual(actual, o));
    default:
      return false;
  }
}

/** The literal labels a condition's path starts with (up to its first `*` wildcard). */
export function literalPrefix(conditions: readonly MatchCondition[] | undefined): string[] {
  const prefix = conditions?.find((c) => c.matchType === "prefix");
  if (!prefix) return [];
  const wildcard = prefix.path.indexOf("*");
  return prefix.path.slice(0, wildcard === -1 ? prefix.path.length : wildcard);
}

function matchesCondition(condition: MatchCondition, namespace: readonly string[]): boolean {
  const { path } = condition;
  if (path.length > namespace.length) return false;
  const start = condition.matchType === "prefix" ? 0 : namespace.length - path.length;
  return path.every((label, i) => label === "*" || namespace[start + i] === label);
}

/**
 * The answer to a list-namespaces operation over the namespaces that hold live items: the
 * matching ones, cut to `maxDepth` labels (duplicates merged), in label order, paged.
 */
export function listNamespaces(stored: Iterable<string>, op: ListNamespacesOperation): string[][] {
  const conditions = op.matchConditions ?? [];
  const kept = new Set<string>();
  for (const text of stored) {
    const namespace = namespaceOf(text);
    if (!conditions.every((condition) => matchesCondition(condition, namespace))) continue;
    kept.add(
      namespaceText(op.maxDepth === undefined ? namespace : namespace.slice(0, op.maxDepth)),
    );
  }
  const sorted = [...kept].map(namespaceOf).sort(compareNamespaces);
  const offset = op.offset ?? 0;
  return sorted.slice(offset, offset + (op.limit ?? sorted.length));
}

function compareNamespaces(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a[i] ?? "";
    const y = b[i] ?? "";
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

interface Sortable {
  updatedAt: Date;
  namespace: readonly string[];
  key: string;
}

/** Search order: most recently updated first; ties by namespace, then key. */
export function compareForSearch(a: Sortable, b: Sortable): number {
  const byTime = b.updatedAt.getTime() - a.updatedAt.getTime();
  if (byTime !== 0) return byTime;
  const byNamespace = compareText(namespaceText(a.namespace), namespaceText(b.namespace));
  return byNamespace !== 0 ? byNamespace : compareText(a.key, b.key);
}

function compareText(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}
