/**
 * The layout of a run's Redis stream. Every entry carries `prev`, the id of the entry written just
 * before it (`0-0` for the first one), so a reader can tell "the window moved past my cursor and
 * dropped events" from "the window moved exactly up to my cursor and nothing was lost" — and a
 * reader that saw an empty stream can tell whether the first retained entry is the first ever.
 * Every entry also carries `epoch`, the incarnation of the stream (see stream-ids): the first
 * entry of a new stream picks it, every later one copies it from its predecessor.
 *
 *   {kind: "event", event: <name>, data: <JSON>, prev: <id>, epoch: <epoch>}
 *   {kind: "end", prev: <id>, epoch: <epoch>}
 */
import { StoreError, ValidationError } from "../../core/errors.js";
import type { StreamEvent } from "../../ports/stream-bridge.js";
import { formatEventId, isEpoch } from "./stream-ids.js";

/** `id` and `prev` are Redis entry ids; an event's `event.id` is its event id (with the epoch). */
export type StoredEntry =
  | { kind: "event"; id: string; prev: string; epoch: string; event: StreamEvent }
  | { kind: "end"; id: string; prev: string; epoch: string };

/** Event data as stored: JSON text. `undefined` is stored as `null` (JSON has no undefined). */
export function encodeEventData(data: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch (error) {
    throw new ValidationError("Stream event data must be JSON-serializable.", { cause: error });
  }
  return json ?? "null";
}

/** Decodes an `XRANGE`/`XREVRANGE` reply; anything else at the key is a store error, never data. */
export function decodeEntries(reply: unknown, runId: string): StoredEntry[] {
  if (!Array.isArray(reply)) throw notOurs(runId, "the reply is not an entry list");
  return reply.map((raw: unknown) => decodeEntry(raw, runId));
}

function decodeEntry(raw: unknown, runId: string): StoredEntry {
  if (!Array.isArray(raw) || raw.length !== 2) throw notOurs(runId, "malformed entry");
  const [id, list]: unknown[] = raw;
  if (typeof id !== "string" || !Array.isArray(list)) throw notOurs(runId, "malformed entry");
  const fields = new Map<string, string>();
  for (let index = 0; index + 1 < list.length; index += 2) {
    const name: unknown = list[index];
    const value: unknown = list[index + 1];
    if (typeof name === "string" && typeof value === "string") fields.set(name, value);
  }
  const prev = fields.get("prev");
  if (prev === undefined) throw notOurs(runId, `entry ${id} has no prev field`);
  const epoch = fields.get("epoch");
  if (epoch === undefined || !isEpoch(epoch)) throw notOurs(runId, `entry ${id} has no epoch`);
  const kind = fields.get("kind");
  if (kind === "end") return { kind: "end", id, prev, epoch };
  const event = fields.get("event");
  const data = fields.get("data");
  if (kind !== "event" || event === undefined || data === undefined) {
    throw notOurs(runId, `entry ${id} is neither an event nor the end marker`);
  }
  const eventId = formatEventId(id, epoch);
  return {
    kind: "event",
    id,
    prev,
    epoch,
    event: { id: eventId, event, data: parseData(data, id, runId) },
  };
}

function parseData(text: string, id: string, runId: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw notOurs(runId, `entry ${id} holds data that is not JSON`, error);
  }
}

function notOurs(runId: string, what: string, cause?: unknown): StoreError {
  return new StoreError(
    `The Redis stream of run ${runId} is not a Fawn stream (${what}); check the key prefix.`,
    cause === undefined ? undefined : { cause },
  );
}
