import type { Redis } from "ioredis";
import type { StreamGap } from "../../ports/stream-bridge.js";
import { decodeEntries, type StoredEntry } from "./stream-entries.js";
import { ORIGIN_ID } from "./stream-ids.js";

/** Entries a subscriber takes per poll; a longer backlog is read in several polls. */
export const SNAPSHOT_BATCH = 64;

/** What one poll sees, all from the same instant (one MULTI), so the three parts agree. */
export interface StreamSnapshot {
  /** The oldest retained entry; undefined when the stream does not exist. */
  first: StoredEntry | undefined;
  /** The newest one or two entries, newest first (two, so a gap can name the last event before an end marker). */
  newest: StoredEntry[];
  /** Entries from `start` on, inclusive; at most `SNAPSHOT_BATCH` of them come after `start`. */
  entries: StoredEntry[];
}

/**
 * One round trip: {first entry, newest entries, a batch from `start`}. `start` is `-` (the oldest
 * retained entry) or an id, read inclusively so the caller can see whether that id still exists.
 */
export async function readSnapshot(
  client: Redis,
  key: string,
  runId: string,
  start: string,
): Promise<StreamSnapshot> {
  // Neither `-` nor the origin can be an entry, so only a real id needs one extra slot for itself.
  const count = start === "-" || start === ORIGIN_ID ? SNAPSHOT_BATCH : SNAPSHOT_BATCH + 1;
  const replies = await client
    .multi()
    .xrange(key, "-", "+", "COUNT", 1)
    .xrevrange(key, "+", "-", "COUNT", 2)
    .xrange(key, start, "+", "COUNT", count)
    .exec();
  // exec() answers null only for a WATCH-aborted transaction; we never WATCH, so treat it as a fault.
  if (!replies) throw new Error("The Redis snapshot transaction was discarded.");
  const [first, newest, entries] = replies.map(([error, reply]) => {
    if (error) throw error;
    return decodeEntries(reply, runId);
  });
  return { first: first?.[0], newest: newest ?? [], entries: entries ?? [] };
}

/** The gap item for a subscriber whose next event is no longer retained. */
export function gapAt(snapshot: StreamSnapshot, requestedEventId: string | null): StreamGap {
  const earliest = snapshot.first?.kind === "event" ? snapshot.first.event.id : null;
  const latest = snapshot.newest.find((entry) => entry.kind === "event");
  return {
    requestedEventId,
    earliestAvailableEventId: earliest,
    latestAvailableEventId: latest?.kind === "event" ? latest.event.id : null,
  };
}
