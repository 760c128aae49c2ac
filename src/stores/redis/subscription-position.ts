/**
 * Where a subscriber stands and what one snapshot means for it — pure, so every cursor case can be
 * tested without a server. A position is always "strictly after some entry of one incarnation of
 * the stream" once established. A subscriber continues only where the snapshot proves nothing
 * was lost since that entry: the entry is still there, or it is the `prev` of the oldest retained
 * one, in the same epoch. Anything else — the stream gone (restart, eviction, expiry), a new
 * incarnation, a window trimmed past the entry — is a gap.
 */
import type { StreamGap } from "../../ports/stream-bridge.js";
import type { StoredEntry } from "./stream-entries.js";
import { compareStreamIds, type EventCursor, ORIGIN_ID, parseEventId } from "./stream-ids.js";
import { gapAt, type StreamSnapshot } from "./stream-snapshot.js";

export type FollowPosition = {
  mode: "follow";
  /** Deliver entries strictly after this entry id; `ORIGIN_ID` means "from the first entry ever written". */
  after: string;
  /** The incarnation `after` belongs to; null only while at the origin of a stream not yet seen. */
  epoch: string | null;
  /** The last event id this subscriber delivered or resumed from (a gap names it); null if none. */
  lastSeenId: string | null;
};

export type Position =
  /** No cursor (or one this bridge did not issue): start at the oldest retained entry, whatever it is. */
  | { mode: "earliest" }
  /** A client's cursor, not yet checked against the stream. */
  | { mode: "verify"; cursor: EventCursor }
  | FollowPosition;

export type Step =
  /** Deliver `entries` (all after `position.after`, in order), then continue from `position`. */
  | { kind: "read"; entries: StoredEntry[]; position: FollowPosition }
  | { kind: "gap"; gap: StreamGap };

export function initialPosition(
  lastEventId: string | null | undefined,
  fromFirst = false,
): Position {
  // From the first entry ever written: a window already past it is a gap (see `fromFollow`).
  if (fromFirst && !lastEventId) return follow(ORIGIN_ID, null, null);
  // A cursor of another form never reaches Redis: the contract says replay, not a server error.
  const cursor = lastEventId ? parseEventId(lastEventId) : null;
  return cursor ? { mode: "verify", cursor } : { mode: "earliest" };
}

/** The inclusive start of the snapshot's batch read. */
export function readStart(position: Position): string {
  switch (position.mode) {
    case "earliest":
      return "-";
    case "verify":
      return position.cursor.id;
    case "follow":
      return position.after;
  }
}

export function nextStep(position: Position, snapshot: StreamSnapshot): Step {
  switch (position.mode) {
    case "earliest":
      return fromEarliest(snapshot);
    case "verify":
      return fromCursor(position.cursor, snapshot);
    case "follow":
      return fromFollow(position, snapshot);
  }
}

/** The position after delivering the event `entry` (the loop advances entry by entry). */
export function afterEvent(entry: Extract<StoredEntry, { kind: "event" }>): FollowPosition {
  return follow(entry.id, entry.epoch, entry.event.id);
}

function fromEarliest(snapshot: StreamSnapshot): Step {
  const { first, entries } = snapshot;
  // An empty stream: wait for its first entry ever, and notice if the window skips past it.
  if (!first) return { kind: "read", entries: [], position: follow(ORIGIN_ID, null, null) };
  return { kind: "read", entries, position: follow(first.prev, first.epoch, null) };
}

function fromCursor(cursor: EventCursor, snapshot: StreamSnapshot): Step {
  const { first, entries } = snapshot;
  // The stream is gone, or is another incarnation: what followed the cursor was lost with it.
  if (!first || first.epoch !== cursor.epoch) {
    return { kind: "gap", gap: gapAt(snapshot, cursor.text) };
  }
  const resumed = follow(cursor.id, cursor.epoch, cursor.text);
  if (entries[0]?.id === cursor.id) {
    return { kind: "read", entries: entries.slice(1), position: resumed };
  }
  // Below the window: fine only if the cursor is exactly the entry before the oldest retained one.
  if (compareStreamIds(first.id, cursor.id) > 0 && first.prev === cursor.id) {
    return { kind: "read", entries, position: resumed };
  }
  // Trimmed past, or an id of this epoch that is no entry (say, written to a primary whose
  // replica took over without it): nothing proves the client missed nothing.
  return { kind: "gap", gap: gapAt(snapshot, cursor.text) };
}

function fromFollow(position: FollowPosition, snapshot: StreamSnapshot): Step {
  const { first, entries } = snapshot;
  if (!first) {
    // Still waiting for a stream's first entry ever: nothing was there to lose.
    if (position.epoch === null) return { kind: "read", entries: [], position };
    return { kind: "gap", gap: gapAt(snapshot, position.lastSeenId) };
  }
  if (position.epoch !== null && first.epoch !== position.epoch) {
    return { kind: "gap", gap: gapAt(snapshot, position.lastSeenId) };
  }
  if (entries[0]?.id === position.after) {
    return { kind: "read", entries: entries.slice(1), position };
  }
  if (first.prev === position.after) {
    return { kind: "read", entries, position: { ...position, epoch: first.epoch } };
  }
  return { kind: "gap", gap: gapAt(snapshot, position.lastSeenId) };
}

function follow(after: string, epoch: string | null, lastSeenId: string | null): FollowPosition {
  return { mode: "follow", after, epoch, lastSeenId };
}
