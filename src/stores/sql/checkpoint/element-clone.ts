/**
 * Copies of decoded list elements. Decoding a stored message (JSON parse, LangGraph's async
 * reviver, LangChain's `load`) costs far more than copying the object it produces, and every
 * read must hand out objects of its own (a caller may change them). So the saver decodes an
 * element once into a private template and hands out copies: same prototypes, same own
 * properties (symbols and descriptors included), same sharing between fields (a message's
 * `lc_kwargs.additional_kwargs` is its `additional_kwargs`), new objects throughout.
 */

/** A decoded element prepared for copying. */
export interface CopyTemplate {
  readonly value: unknown;
  /** For a class instance whose own properties can be copied by plain assignment: their keys. */
  readonly assignedKeys: readonly (string | symbol)[] | undefined;
}

/**
 * The template for `decoded`, or undefined when a copy could differ from a fresh decoding:
 * arrays and plain objects must hold only plain data properties (what JSON and the reviver
 * create), class instances anything but internal slots. Callers check `snapshotElement` first,
 * which rules out maps, dates and the like.
 */
export function copyTemplateOf(decoded: unknown): CopyTemplate | undefined {
  if (!isCloneable(decoded)) return undefined;
  return { value: decoded, assignedKeys: assignableKeys(decoded) };
}

/** A deep copy of the template's value. */
export function copyElement(template: CopyTemplate): unknown {
  const { value, assignedKeys } = template;
  const copies = new Map<object, unknown>();
  if (assignedKeys === undefined || typeof value !== "object" || value === null) {
    return copy(value, copies);
  }
  const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<
    string | symbol,
    unknown
  >;
  copies.set(value, out);
  const fields = value as Record<string | symbol, unknown>;
  for (const key of assignedKeys) out[key] = copy(fields[key], copies);
  return out;
}

export function isCloneable(template: unknown, seen = new Set<object>()): boolean {
  if (typeof template !== "object" || template === null) return typeof template !== "function";
  if (seen.has(template)) return true;
  seen.add(template);
  const keys = Reflect.ownKeys(template);
  // Holes would come back as undefined entries (JSON never makes them).
  if (Array.isArray(template) && keys.length !== template.length + 1) return false;
  const plain = Array.isArray(template) || isPlainObject(template);
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(template, key);
    if (descriptor === undefined) return false;
    if (!("value" in descriptor)) {
      if (plain) return false;
      continue;
    }
    if (plain && typeof key !== "string") return false;
    if (plain && !descriptor.enumerable && !(Array.isArray(template) && key === "length")) {
      return false;
    }
    if (!isCloneable(descriptor.value, seen)) return false;
  }
  return true;
}

/**
 * A class instance's own keys when assigning them onto `Object.create(prototype)` recreates
 * them exactly (much faster than defining each): every one an ordinary writable, enumerable,
 * configurable data property, and none shadowing a setter or read-only property up the chain.
 */
function assignableKeys(value: unknown): (string | symbol)[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value) || isPlainObject(value)) return undefined;
  const keys = Reflect.ownKeys(value);
  for (const key of keys) {
    const own = Object.getOwnPropertyDescriptor(value, key);
    if (!own || !("value" in own) || !own.writable || !own.enumerable || !own.configurable) {
      return undefined;
    }
    for (let proto = Object.getPrototypeOf(value); proto !== null; ) {
      const inherited = Object.getOwnPropertyDescriptor(proto, key);
      if (inherited !== undefined) {
        if (!("value" in inherited) || !inherited.writable) return undefined;
        break;
      }
      proto = Object.getPrototypeOf(proto);
    }
  }
  return keys;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function copy(value: unknown, copies: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const done = copies.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    copies.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i], copies);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype) {
    const out: Record<string, unknown> = {};
    copies.set(value, out);
    for (const key of Object.keys(value)) {
      const field = copy((value as Record<string, unknown>)[key], copies);
      // Assigning "__proto__" would set the prototype; JSON.parse makes it an own property.
      if (key === "__proto__") define(out, key, field);
      else out[key] = field;
    }
    return out;
  }
  const out: object = Object.create(proto as object | null);
  copies.set(value, out);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined) continue;
    if ("value" in descriptor) descriptor.value = copy(descriptor.value, copies);
    Object.defineProperty(out, key, descriptor);
  }
  return out;
}

function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
