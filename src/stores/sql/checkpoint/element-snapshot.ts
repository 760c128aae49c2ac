import { isBaseMessage } from "@langchain/core/messages";

/**
 * What a list element looked like when it was last serialized: every object's identity, array
 * length, own enumerable key and leaf value, in walk order. Seeing the same snapshot again proves
 * the element serializes to the same bytes without serializing it: strings and numbers compare
 * by value, objects by identity and then by their contents, so an edit anywhere inside — a
 * reassigned `content`, a tool call's argument changed in place, a pushed content block — is
 * seen. Costs one comparison per node, whatever the size of the strings.
 */
export type ElementSnapshot = readonly unknown[];

/** Marks the end of an object's keys, so an added or removed key changes the snapshot. */
const END_OF_KEYS = Symbol("end of keys");
/** Beyond these the element is serialized every time: deep or cyclic data, or huge objects. */
const MAX_DEPTH = 32;
const MAX_NODES = 10_000;

/**
 * The snapshot of `value`, or undefined when a snapshot could not vouch for it: state the walk
 * cannot see (a `Map`, `Date`, typed array or any class instance other than a LangChain message
 * at the top), a function, or data past the depth and size limits. Primitives have no identity
 * to key a cache by and get none either.
 */
export function snapshotElement(value: unknown): ElementSnapshot | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const trail: unknown[] = [];
  return record(value, 0, trail) ? trail : undefined;
}

/** Whether `value` still looks exactly as it did when `snapshot` was taken. */
export function matchesSnapshot(value: unknown, snapshot: ElementSnapshot): boolean {
  const cursor = { at: 0 };
  return compare(value, snapshot, cursor) && cursor.at === snapshot.length;
}

/** Objects whose whole state the walk sees: arrays, plain objects, and messages at the top. */
function walkable(value: object, depth: number): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || (depth === 0 && isBaseMessage(value));
}

function record(value: unknown, depth: number, trail: unknown[]): boolean {
  if (trail.length > MAX_NODES) return false;
  if (typeof value === "function") return false;
  trail.push(value);
  if (typeof value !== "object" || value === null) return true;
  if (depth >= MAX_DEPTH || !walkable(value, depth)) return false;
  if (Array.isArray(value)) {
    trail.push(value.length);
    for (const item of value) if (!record(item, depth + 1, trail)) return false;
    return true;
  }
  trail.push(Object.getPrototypeOf(value));
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    trail.push(key);
    if (!record(object[key], depth + 1, trail)) return false;
  }
  trail.push(END_OF_KEYS);
  return true;
}

/** `record`, comparing against `snapshot` instead of appending; stops at the first difference. */
function compare(value: unknown, snapshot: ElementSnapshot, cursor: { at: number }): boolean {
  if (snapshot[cursor.at++] !== value) return false;
  if (typeof value !== "object" || value === null) return true;
  // The same object as at snapshot time, so the same kind; only its contents may have changed.
  if (Array.isArray(value)) {
    if (snapshot[cursor.at++] !== value.length) return false;
    for (const item of value) if (!compare(item, snapshot, cursor)) return false;
    return true;
  }
  if (snapshot[cursor.at++] !== Object.getPrototypeOf(value)) return false;
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    if (snapshot[cursor.at++] !== key) return false;
    if (!compare(object[key], snapshot, cursor)) return false;
  }
  return snapshot[cursor.at++] === END_OF_KEYS;
}
