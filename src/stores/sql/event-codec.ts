import type { Insertable, Selectable } from "kysely";
import { ValidationError } from "../../core/errors.js";
import {
  MAX_CATEGORY_LENGTH,
  MAX_EVENT_TYPE_LENGTH,
  type NewRunEvent,
  type RunEvent,
} from "../../ports/run-event-store.js";
import { SerializedRunEvent } from "../../ports/serialized-run-event.js";
import { fromDbObject, fromDbTimestamp, toDbTimestamp } from "./codec.js";
import type { RunEventsTable } from "./schema.js";

/** Metadata key telling the reader that `content` holds JSON text of a non-string value. */
export const CONTENT_IS_JSON = "content_is_json";
/** Width of the id columns (varchar(64)); longer ids would fail inside the database. */
const MAX_ID_LENGTH = 64;

function checkText(field: string, value: unknown, max: number): void {
  if (typeof value !== "string" || value.length < 1 || value.length > max) {
    throw new ValidationError(
      `Event ${field} must be 1-${max} characters; got ${JSON.stringify(value)}.`,
    );
  }
}

/** Rejects what the tables cannot hold, before anything is written. */
export function validateNewEvent(event: NewRunEvent): void {
  checkText("event_type", event.event_type, MAX_EVENT_TYPE_LENGTH);
  checkText("category", event.category, MAX_CATEGORY_LENGTH);
  checkText("thread_id", event.thread_id, MAX_ID_LENGTH);
  checkText("run_id", event.run_id, MAX_ID_LENGTH);
  if (event.user_id != null) checkText("user_id", event.user_id, MAX_ID_LENGTH);
}

/**
 * An event in its stored form, minus the seq: every JSON value already serialized, exactly once.
 * `metadata` is the stored JSON text (with the content marker when `contentIsJson`).
 */
export interface EncodedEvent {
  thread_id: string;
  run_id: string;
  user_id: string | null;
  event_type: string;
  category: string;
  content: string;
  contentIsJson: boolean;
  metadata: string;
  created_at: string;
}

function encodeJson(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new ValidationError(`Event ${what} must be a string or a JSON value.`, { cause: error });
  }
  if (text === undefined)
    throw new ValidationError(`Event ${what} must be a string or a JSON value.`);
  return text;
}

/** The stored metadata text with the content marker, without copying the caller's object. */
function markedMetadata(text: string): string {
  // A caller's own `content_is_json` key comes first; JSON readers keep the last duplicate.
  return text === "{}" ? MARKER_ONLY : `${text.slice(0, -1)},${MARKER_ONLY.slice(1)}`;
}

const MARKER_ONLY = JSON.stringify({ [CONTENT_IS_JSON]: true });

/**
 * `toDbTimestamp`, remembering the last answer: a run's events arrive in bursts that share one
 * millisecond timestamp, and canonicalizing each costs a parse and a Date.
 */
let lastTimestamp = { given: "", stored: "" };

function storedTimestamp(given: string): string {
  if (given === lastTimestamp.given) return lastTimestamp.stored;
  const stored = toDbTimestamp(given, "created_at");
  lastTimestamp = { given, stored };
  return stored;
}

/**
 * Strings are stored as they are (unless they contain NUL); any other value as JSON text with
 * `content_is_json: true` in the stored metadata, so it reads back as the same JSON value.
 */
export function encodeEvent(event: NewRunEvent, now: string): EncodedEvent {
  validateNewEvent(event);
  // Texts the producer wrote already (the journal, as it appended) are not written again, and
  // its content is not even decoded.
  const serialized = event instanceof SerializedRunEvent ? event : null;
  const metadataText = serialized?.metadataText() ?? encodeJson(event.metadata ?? {}, "metadata");
  let content = serialized?.contentText();
  let contentIsJson = content !== undefined;
  if (content === undefined) {
    const raw = event.content === undefined ? "" : event.content;
    // PostgreSQL text cannot hold NUL; JSON text escapes it, so such strings travel JSON-encoded.
    contentIsJson = typeof raw !== "string" || raw.includes("\u0000");
    content = typeof raw === "string" && !contentIsJson ? raw : encodeJson(raw, "content");
  }
  return {
    thread_id: event.thread_id,
    run_id: event.run_id,
    user_id: event.user_id ?? null,
    event_type: event.event_type,
    category: event.category,
    content,
    contentIsJson,
    metadata: contentIsJson ? markedMetadata(metadataText) : metadataText,
    created_at: storedTimestamp(event.created_at ?? now),
  };
}

/** The insertable row of an encoded event (single-row writes go through the query builder). */
export function eventRow(event: EncodedEvent, seq: number): Insertable<RunEventsTable> {
  return {
    thread_id: event.thread_id,
    run_id: event.run_id,
    user_id: event.user_id,
    event_type: event.event_type,
    category: event.category,
    content: event.content,
    event_metadata: event.metadata,
    created_at: event.created_at,
    seq,
  };
}

/**
 * What a later read of the stored event returns. Content and metadata are decoded from the stored
 * text on first access only: a writer such as the journal never looks at them, and decoding every
 * event it appends would double the CPU cost of a batch.
 */
export function storedEnvelope(event: EncodedEvent, seq: number): RunEvent {
  let content: unknown;
  let metadata: Record<string, unknown> | undefined;
  let contentDecoded = false;
  return {
    thread_id: event.thread_id,
    run_id: event.run_id,
    seq,
    event_type: event.event_type,
    category: event.category,
    get content(): unknown {
      if (!contentDecoded) {
        content = event.contentIsJson ? decodeJson(event.content) : event.content;
        contentDecoded = true;
      }
      return content;
    },
    set content(value: unknown) {
      content = value;
      contentDecoded = true;
    },
    get metadata(): Record<string, unknown> {
      metadata ??= withoutMarker(fromDbObject(event.metadata));
      return metadata;
    },
    set metadata(value: Record<string, unknown>) {
      metadata = value;
    },
    created_at: event.created_at,
    user_id: event.user_id,
  };
}

function withoutMarker(stored: Record<string, unknown>): Record<string, unknown> {
  const { [CONTENT_IS_JSON]: _marker, ...metadata } = stored;
  return metadata;
}

/** The stored row as the contract's envelope; the JSON marker is ours and is not handed out. */
export function runEventFromDb(record: Selectable<RunEventsTable>): RunEvent {
  const { [CONTENT_IS_JSON]: isJson, ...metadata } = fromDbObject(record.event_metadata);
  return {
    thread_id: record.thread_id,
    run_id: record.run_id,
    seq: Number(record.seq),
    event_type: record.event_type,
    category: record.category,
    content: isJson === true ? decodeJson(record.content) : record.content,
    metadata,
    created_at: fromDbTimestamp(record.created_at),
    user_id: record.user_id,
  };
}

function decodeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Only this module writes the marker, so this is a row edited by hand; show it verbatim.
    return text;
  }
}
