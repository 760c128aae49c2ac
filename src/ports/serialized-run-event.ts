import { type Json, toJson } from "../core/json/serialize.js";
import type { NewRunEvent } from "./run-event-store.js";

/** Nesting beyond which a value is left to `toJson` (which also drops cycles). */
const MAX_PLAIN_DEPTH = 32;

/**
 * Whether `JSON.stringify(value)` already writes what `JSON.stringify(toJson(value))` would: only
 * strings, booleans, finite numbers, null, arrays and plain objects (no `toJSON`), shallower than
 * `MAX_PLAIN_DEPTH`. Walks without allocating; anything else (messages, Dates, Maps, class
 * instances, bigints, functions) answers false and goes through `toJson`.
 */
function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "undefined":
      // Skipped in objects and written as null in arrays, by both.
      return true;
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= MAX_PLAIN_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let index = 0; index < value.length; index++) {
      if (!isPlainJson(value[index], depth + 1)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || "toJSON" in value) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!isPlainJson(record[key], depth + 1)) return false;
  }
  return true;
}

/** `JSON.stringify(toJson(value))`, without `toJson`'s copy when the value is plain JSON already. */
export function jsonText(value: unknown): string {
  // Top-level undefined writes nothing; `toJson` makes it null.
  return JSON.stringify(isPlainJson(value, 0) ? value : toJson(value)) ?? "null";
}

/** The fields a producer builds an event from. */
export interface SerializedRunEventFields {
  thread_id: string;
  run_id: string;
  event_type: string;
  category: string;
  /** Any value: converted as `toJson` would, serialized here, and not kept. */
  content: unknown;
  metadata: Record<string, Json>;
  created_at: string;
  user_id: string | null;
}

/** A `SerializedRunEvent` as plain data (`toWire`): what structured clone keeps whole. */
export interface SerializedRunEventWire {
  thread_id: string;
  run_id: string;
  event_type: string;
  category: string;
  created_at: string;
  user_id: string | null;
  metadata: Record<string, Json>;
  /** `metadata`'s JSON text, while it is still the value the text was written for. */
  metadataText?: string;
  /** The content's JSON text as written, or the content itself (a string, or a value set later). */
  content: { text: string } | { value: Json };
}

/** Key of the constructor argument only `fromWire` can build (the symbol is not exported). */
const FROM_WIRE = Symbol("SerializedRunEvent.fromWire");

/**
 * A new event whose producer serialized it already — the journal does it as it appends, while
 * the batch before is being written — so a store that keeps JSON text (SQL) uses the text as it
 * is instead of serializing on the write path.
 *
 * Content is held as its JSON text alone until something reads it (then parsed once): a
 * journal's events wait in its buffer, and the text is half the memory of the value it encodes,
 * so there is less for the garbage collector to copy. Stores read the fields by name; `content` is
 * an accessor, so a spread copy of this event has none — copy the fields instead.
 * A text is handed out only while the field still holds the value it was written for: a caller
 * that sets `content` or `metadata` gets that value serialized again.
 */
export class SerializedRunEvent implements NewRunEvent {
  thread_id: string;
  run_id: string;
  event_type: string;
  category: string;
  metadata: Record<string, Json>;
  created_at: string;
  user_id: string | null;
  /** The content's JSON text, or the content itself when it is a string. */
  readonly #text: string;
  /** `#text` is JSON text (the content is not a string) and `content` was never set since. */
  #textIsContent: boolean;
  /** The content as a value, once read or set. */
  #value: Json | undefined;
  readonly #metadata: Record<string, Json>;
  readonly #metadataText: string;

  constructor(fields: SerializedRunEventFields | { [FROM_WIRE]: SerializedRunEventWire }) {
    if (FROM_WIRE in fields) {
      // Rebuilt on the other side of a port: the texts written there are taken as they are.
      const wire = fields[FROM_WIRE];
      this.thread_id = wire.thread_id;
      this.run_id = wire.run_id;
      this.event_type = wire.event_type;
      this.category = wire.category;
      this.metadata = wire.metadata;
      this.created_at = wire.created_at;
      this.user_id = wire.user_id;
      if ("text" in wire.content) {
        this.#text = wire.content.text;
        this.#textIsContent = true;
      } else {
        this.#text = "";
        this.#textIsContent = false;
        this.#value = wire.content.value;
      }
      // Without a text, a private object no caller holds: `metadataText()` answers undefined.
      this.#metadata = wire.metadataText === undefined ? {} : wire.metadata;
      this.#metadataText = wire.metadataText ?? "";
      return;
    }
    this.thread_id = fields.thread_id;
    this.run_id = fields.run_id;
    this.event_type = fields.event_type;
    this.category = fields.category;
    this.metadata = fields.metadata;
    this.created_at = fields.created_at;
    this.user_id = fields.user_id;
    const { content } = fields;
    if (typeof content === "string") {
      this.#text = content;
      this.#textIsContent = false;
      this.#value = content;
    } else {
      this.#text = jsonText(content);
      this.#textIsContent = true;
    }
    this.#metadata = fields.metadata;
    this.#metadataText = JSON.stringify(fields.metadata);
  }

  get content(): Json {
    if (this.#value === undefined) this.#value = JSON.parse(this.#text) as Json;
    return this.#value;
  }

  set content(value: Json) {
    this.#value = value;
    this.#textIsContent = false;
  }

  /** JSON text of `content` (never for a string, which is stored as it is), unless it was set. */
  contentText(): string | undefined {
    return this.#textIsContent ? this.#text : undefined;
  }

  /** JSON text of `metadata`, when it is still the value serialized at construction. */
  metadataText(): string | undefined {
    return this.metadata === this.#metadata ? this.#metadataText : undefined;
  }

  /**
   * This event as structured clone carries it across a `MessagePort`: the fields, and the texts
   * already written, so the other side (`fromWire`) stores them without serializing again.
   */
  toWire(): SerializedRunEventWire {
    const contentText = this.contentText();
    const metadataText = this.metadataText();
    return {
      thread_id: this.thread_id,
      run_id: this.run_id,
      event_type: this.event_type,
      category: this.category,
      created_at: this.created_at,
      user_id: this.user_id,
      metadata: this.metadata,
      ...(metadataText === undefined ? {} : { metadataText }),
      content: contentText === undefined ? { value: this.content } : { text: contentText },
    };
  }

  /** The event `toWire` described, handing out the same texts it would have. */
  static fromWire(wire: SerializedRunEventWire): SerializedRunEvent {
    return new SerializedRunEvent({ [FROM_WIRE]: wire });
  }
}
