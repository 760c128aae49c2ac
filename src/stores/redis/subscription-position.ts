/**
 * Where a subscriber stands and what one snapshot means for it — pure, so every cursor case can be
 * tested without a server. A position is always "strictly after some id" once established; the
 * `prev` link of the oldest retained entry tells whether anything between that id and the window
 * was lost.
 */
import type { StreamGap } from "../../runtime/stream-bridge.js";
import type { StoredEntry } from "./stream-entries.js";
import { compareStreamIds, isStreamId, ORIGIN_ID } from "./stream-ids.js";
import { gapAt, type StreamSnapshot } from "./stream-snapshot.js";

export type FollowPosition = {
  mode: "follow";
  /** Deliver entries strictly after this id; `ORIGIN_ID` means "from the first entry ever written". */
  after: string;
  /** The last id this subscriber delivered or resumed from (a gap names it); null if none. */
  lastSeenId: string | null;
};

export type Position =
  /** No cursor (or an unknown one): start at the oldest retained entry, whatever it is. */
  | { mode: "earliest" }
  /** A client's cursor, not yet checked against the stream. */
  | { mode: "verify"; cursor: string }
  | FollowPosition;

export type Step =
  /** Deliver `entries` (all after `position.after`, in order), then continue from `position`. */
  | { kind: "read"; entries: StoredEntry[]; position: FollowPosition }
  | { kind: "gap"; gap: StreamGap }
  /** The cursor names no entry of this stream: replay from the earliest retained entry. */
  | { kind: "restart" }
  /** The stream vanished (cleanup or TTL) under a subscriber that was already in it. */
  | { kind: "dropped" };

export function initialPosition(lastEventId: string | null | undefined): Position {
  // A malformed cursor never reaches Redis: the contract says replay, not a server error.
  return lastEventId && isStreamId(lastEventId)
    ? { mode: "verify", cursor: lastEventId }
    : { mode: "earliest" };
}

/** The inclusive start of the snapshot's batch read. */
export function readStart(position: Position): string {
  switch (position.mode) {
    case "earliest":
      return "-";
    case "verify":
      return position.cursor;
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

function fromEarliest(snapshot: StreamSnapshot): Step {
  const { first, entries } = snapshot;
  // An empty stream: wait for its first entry ever, and notice if the window skips past it.
  if (!first) return { kind: "read", entries: [], position: follow(ORIGIN_ID, null) };
  return { kind: "read", entries, position: follow(first.prev, null) };
}

function fromCursor(cursor: string, snapshot: StreamSnapshot): Step {
  const { first, entries } = snapshot;
  if (!first) return { kind: "restart" };
  const resumed = follow(cursor, cursor);
  if (entries[0]?.id === cursor)
    return { kind: "read", entries: entries.slice(1), position: resumed };
  if (compareStreamIds(first.id, cursor) > 0) {
    // Below the window: fine if the cursor is exactly the entry before the oldest retained one.
    return first.prev === cursor
      ? { kind: "read", entries, position: resumed }
      : { kind: "gap", gap: gapAt(snapshot, cursor) };
  }
  return { kind: "restart" };
}

function fromFollow(position: FollowPosition, snapshot: StreamSnapshot): Step {
  const { first, entries } = snapshot;
  if (!first)
    return position.after === ORIGIN_ID
      ? { kind: "read", entries: [], position }
      : { kind: "dropped" };
  if (entries[0]?.id === position.after) {
    return { kind: "read", entries: entries.slice(1), position };
  }
  if (first.prev === position.after) return { kind: "read", entries, position };
  return { kind: "gap", gap: gapAt(snapshot, position.lastSeenId) };
}

function follow(after: string, lastSeenId: string | null): FollowPosition {
  return { mode: "follow", after, lastSeenId };
}
