import { type Json, toJson } from "./serialize.js";

interface Conversion {
  json: Json;
  /** The value's structure in walk order: kinds, lengths, keys and leaf values. */
  leaves: unknown[];
}

const OBJECT = Symbol("object");
const ARRAY = Symbol("array");
const MAX_DEPTH = 16;

/**
 * `toJson` for values handed over again and again — LangGraph's `messages` stream pairs every
 * token with the same metadata object of its model call. The previous conversion of an object is
 * reused while a walk over it finds the same structure and leaves (a comparison, no allocation
 * beyond key lists), so an in-place edit anywhere inside is converted again. The events of a
 * streamed call then share one metadata conversion instead of holding a copy each: less to
 * allocate and far less for the young-generation GC to copy while a run's events are retained.
 * Only plain objects, arrays and primitives are cached; anything else is converted every time.
 */
export class SharedJson {
  private readonly conversions = new WeakMap<object, Conversion>();

  convert(value: unknown): Json {
    if (typeof value !== "object" || value === null) return toJson(value);
    const known = this.conversions.get(value);
    if (known && matches(value, known.leaves)) return known.json;
    const leaves: unknown[] = [];
    const json = toJson(value);
    if (record(value, leaves, 0)) this.conversions.set(value, { json, leaves });
    return json;
  }
}

function isPlainRecord(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Appends `value`'s structure to `leaves`; false when it holds anything but plain data. */
function record(value: unknown, leaves: unknown[], depth: number): boolean {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "function" || typeof value === "symbol") return false;
    leaves.push(value);
    return true;
  }
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    leaves.push(ARRAY, value.length);
    for (const item of value) if (!record(item, leaves, depth + 1)) return false;
    return true;
  }
  if (!isPlainRecord(value)) return false;
  const keys = Object.keys(value);
  leaves.push(OBJECT, keys.length);
  for (const key of keys) {
    leaves.push(key);
    if (!record(value[key], leaves, depth + 1)) return false;
  }
  return true;
}

/** True when a walk over `value` meets exactly `leaves`. */
function matches(value: object, leaves: unknown[]): boolean {
  let at = 0;
  const walk = (node: unknown): boolean => {
    if (typeof node !== "object" || node === null) return Object.is(leaves[at++], node);
    if (Array.isArray(node)) {
      if (leaves[at++] !== ARRAY || leaves[at++] !== node.length) return false;
      for (const item of node) if (!walk(item)) return false;
      return true;
    }
    if (!isPlainRecord(node)) return false;
    const keys = Object.keys(node);
    if (leaves[at++] !== OBJECT || leaves[at++] !== keys.length) return false;
    for (const key of keys) {
      if (leaves[at++] !== key || !walk(node[key])) return false;
    }
    return true;
  };
  return walk(value) && at === leaves.length;
}
