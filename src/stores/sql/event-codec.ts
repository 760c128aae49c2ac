import type { Insertable, Selectable } from "kysely";
import { ValidationError } from "../../core/errors.js";
import {
  MAX_CATEGORY_LENGTH,
  MAX_EVENT_TYPE_LENGTH,
  type NewRunEvent,
  type RunEvent,
} from "../../runtime/run-event-store.js";
import { fromDbObject, fromDbTimestamp, toDbJson, toDbTimestamp } from "./codec.js";
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

/** An event ready to insert except for its seq, plus the envelope the caller gets back. */
export interface PreparedEvent {
  row: Omit<Insertable<RunEventsTable>, "seq">;
  envelope: Omit<RunEvent, "seq">;
}

function encodeJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new ValidationError("Event content must be a string or a JSON value.", { cause: error });
  }
  if (text === undefined) {
    throw new ValidationError("Event content must be a string or a JSON value.");
  }
  return text;
}

/**
 * Strings are stored as they are (unless they contain NUL); any other value as JSON text with
 * `content_is_json: true` in the stored metadata, so it reads back as the same JSON value. The envelope returned to the
 * writer is what a later read returns (the JSON round trip drops e.g. `undefined` fields).
 */
export function prepareEvent(event: NewRunEvent, now: string): PreparedEvent {
  validateNewEvent(event);
  const raw = event.content === undefined ? "" : event.content;
  const metadata = event.metadata ?? {};
  // PostgreSQL text cannot hold NUL; JSON text escapes it, so such strings travel JSON-encoded.
  const isJson = typeof raw !== "string" || raw.includes("\u0000");
  const content = isJson ? encodeJson(raw) : raw;
  const storedMetadata = isJson ? { ...metadata, [CONTENT_IS_JSON]: true } : metadata;
  const createdAt = toDbTimestamp(event.created_at ?? now, "created_at");
  const userId = event.user_id ?? null;
  return {
    row: {
      thread_id: event.thread_id,
      run_id: event.run_id,
      user_id: userId,
      event_type: event.event_type,
      category: event.category,
      content,
      event_metadata: toDbJson(storedMetadata),
      created_at: createdAt,
    },
    envelope: {
      thread_id: event.thread_id,
      run_id: event.run_id,
      event_type: event.event_type,
      category: event.category,
      content: isJson ? JSON.parse(content) : content,
      metadata: JSON.parse(toDbJson(metadata)),
      created_at: createdAt,
      user_id: userId,
    },
  };
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
