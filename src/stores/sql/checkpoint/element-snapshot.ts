import { isBaseMessage } from "@langchain/core/messages";

/**
 * What a list element looked like when it was serialized, as a flat walk: each array's length,
 * each object's prototype, own enumerable keys (in order) and leaf values. Two values with the
 * same snapshot serialize to the same bytes, so a value that still matches the snapshot taken
 * when it was serialized needs no serializing: strings and numbers compare by value (by pointer
 * when unchanged), so an edit anywhere inside — a reassigned `content`, a tool call's argument
 * changed in place, a pushed content block, a key added or removed — is seen. A snapshot names no
 * object, so every copy of a decoded element shares its template's. Costs one comparison per node,
 * whatever the size of the strings.
 */
export type ElementSnapshot = readonly unknown[];

const ARRAY = Symbol("array");
/** Stands for a null prototype, which must not read as a `null` leaf. */
const NULL_PROTOTYPE = Symbol("null prototype");
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
  if (trail.length > MAX_NODES || typeof value === "function") return false;
  if (typeof value !== "object" || value === null) {
    trail.push(value);
    return true;
  }
  if (depth >= MAX_DEPTH || !walkable(value, depth)) return false;
  if (Array.isArray(value)) {
    trail.push(ARRAY, value.length);
    for (const item of value) if (!record(item, depth + 1, trail)) return false;
    return true;
  }
  trail.push(prototypeMark(value));
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    trail.push(key);
    if (!record(object[key], depth + 1, trail)) return false;
  }
  trail.push(END_OF_KEYS);
  return true;
}

/**
 * `record`, comparing against `snapshot` instead of appending; stops at the first difference. A
 * prototype in the snapshot is only ever one `record` accepted, so a map, date or foreign class
 * put in place of a plain object fails on its prototype; the snapshot's length bounds the walk.
 */
function compare(value: unknown, snapshot: ElementSnapshot, cursor: { at: number }): boolean {
  const expected = snapshot[cursor.at++];
  if (typeof value !== "object" || value === null) return expected === value;
  if (Array.isArray(value)) {
    if (expected !== ARRAY || snapshot[cursor.at++] !== value.length) return false;
    for (const item of value) if (!compare(item, snapshot, cursor)) return false;
    return true;
  }
  if (expected !== prototypeMark(value)) return false;
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    if (snapshot[cursor.at++] !== key) return false;
    if (!compare(object[key], snapshot, cursor)) return false;
  }
  return snapshot[cursor.at++] === END_OF_KEYS;
}

function prototypeMark(value: object): unknown {
  return Object.getPrototypeOf(value) ?? NULL_PROTOTYPE;
}
