import type { NewRunEvent } from "./run-event-store.js";
import type { Json } from "./serialize.js";

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

  constructor(fields: {
    thread_id: string;
    run_id: string;
    event_type: string;
    category: string;
    /** A JSON value (see `toJson`); it is serialized here and not kept. */
    content: Json;
    metadata: Record<string, Json>;
    created_at: string;
    user_id: string | null;
  }) {
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
      this.#text = JSON.stringify(content);
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
}
