import { ValidationError } from "../../core/errors.js";

/**
 * Bounds on the shape of every parsed JSON input (request bodies, JSON in query values), checked
 * at the edge before any schema, store or graph sees the value. Deterministic bad input must get
 * a 422, not a stack overflow deep in a store answered as a retryable 503. The byte size is
 * bounded before parsing by the body limit (`maxBodyBytes`).
 */
export interface JsonLimits {
  /** Deepest nesting of objects/arrays (the top-level value is depth 1). */
  maxDepth: number;
  /** Most members of one object. */
  maxObjectKeys: number;
  /** Most values (objects, arrays, scalars) in the whole document. */
  maxValues: number;
}

export const JSON_INPUT_LIMITS: JsonLimits = {
  maxDepth: 64,
  maxObjectKeys: 1000,
  maxValues: 200_000,
};

/** Where an input came from, as the first element of a 422 issue's `loc`. */
export type JsonInputSource = "body" | "query";

interface Pending {
  value: unknown;
  depth: number;
  key: string | number | null;
  parent: Pending | null;
}

function locOf(entry: Pending, source: JsonInputSource): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at: Pending | null = entry; at !== null; at = at.parent) {
    if (at.key !== null) path.push(at.key);
  }
  return [source, ...path.reverse()];
}

function refuse(
  entry: Pending,
  source: JsonInputSource,
  type: string,
  message: string,
): ValidationError {
  const loc = locOf(entry, source);
  // The path of a too-deep value is itself long: name its start only.
  const shown = loc.length > 8 ? `${loc.slice(0, 8).join(".")}…` : loc.join(".");
  return new ValidationError(`Invalid request ${source}: ${shown}: ${message}`, {
    details: { issues: [{ loc: loc.slice(0, 16), msg: message, type }] },
  });
}

/**
 * Throws a 422 when `value` (from `JSON.parse`) exceeds `limits`, or carries a key that would
 * reach an object's prototype once merged or assigned: an own `__proto__` key (which
 * `JSON.parse` creates as a plain property), or `constructor` holding an object with a
 * `prototype` key. Iterative, so arbitrarily deep input cannot overflow the stack here.
 */
export function assertJsonWithinLimits(
  value: unknown,
  source: JsonInputSource,
  limits: JsonLimits = JSON_INPUT_LIMITS,
): void {
  const stack: Pending[] = [{ value, depth: 1, key: null, parent: null }];
  let values = 0;
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    values += 1;
    if (values > limits.maxValues) {
      throw refuse(
        entry,
        source,
        "json_too_many_values",
        `more than ${limits.maxValues} JSON values in one request (limit ${limits.maxValues})`,
      );
    }
    const current = entry.value;
    if (typeof current !== "object" || current === null) continue;
    if (entry.depth > limits.maxDepth) {
      throw refuse(
        entry,
        source,
        "json_too_deep",
        `JSON nested deeper than ${limits.maxDepth} levels (limit ${limits.maxDepth})`,
      );
    }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) {
        stack.push({ value: current[i], depth: entry.depth + 1, key: i, parent: entry });
      }
      continue;
    }
    const keys = Object.keys(current).length;
    if (keys > limits.maxObjectKeys) {
      throw refuse(
        entry,
        source,
        "json_too_many_keys",
        `object with ${keys} keys (limit ${limits.maxObjectKeys} keys per object)`,
      );
    }
    const members = Object.entries(current as Record<string, unknown>);
    for (const [key, member] of members) {
      if (key === "__proto__" || (key === "constructor" && hasPrototypeKey(member))) {
        throw refuse(
          { value: member, depth: entry.depth + 1, key, parent: entry },
          source,
          "json_forbidden_key",
          `key "${key}" is not accepted in JSON input (it could alter object prototypes)`,
        );
      }
    }
    for (const [key, member] of members.reverse()) {
      stack.push({ value: member, depth: entry.depth + 1, key, parent: entry });
    }
  }
}

function hasPrototypeKey(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.hasOwn(value, "prototype");
}
