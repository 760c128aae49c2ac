import { describe, expect, it } from "vitest";
import type { StoredEntry } from "./stream-entries.js";
import { compareStreamIds, isStreamId, ORIGIN_ID } from "./stream-ids.js";
import type { StreamSnapshot } from "./stream-snapshot.js";
import {
  type FollowPosition,
  initialPosition,
  nextStep,
  type Position,
  readStart,
} from "./subscription-position.js";

/** A stream of events `10-0`, `11-0`, … (each linked to its predecessor), optionally ended. */
function stream(
  firstMs: number,
  count: number,
  options: { firstPrev?: string; ended?: boolean } = {},
) {
  const entries: StoredEntry[] = [];
  let prev = options.firstPrev ?? ORIGIN_ID;
  for (let n = 0; n < count; n += 1) {
    const id = `${firstMs + n}-0`;
    entries.push({ kind: "event", id, prev, event: { id, event: "values", data: n } });
    prev = id;
  }
  if (options.ended) entries.push({ kind: "end", id: `${firstMs + count}-0`, prev });
  return entries;
}

/** What readSnapshot would return for `entries` when reading from `start` (inclusive). */
function snapshotOf(entries: StoredEntry[], start: string): StreamSnapshot {
  return {
    first: entries[0],
    newest: entries.slice(-2).reverse(),
    entries: start === "-" ? entries : entries.filter((e) => compareStreamIds(e.id, start) >= 0),
  };
}

function step(position: Position, entries: StoredEntry[]) {
  return nextStep(position, snapshotOf(entries, readStart(position)));
}

const follow = (after: string, lastSeenId: string | null): FollowPosition => ({
  mode: "follow",
  after,
  lastSeenId,
});
const ids = (entries: StoredEntry[]): string[] => entries.map((entry) => entry.id);

describe("stream ids", () => {
  it("accepts complete ids within 64 bits and orders them numerically", () => {
    expect(isStreamId("1700000000000-0")).toBe(true);
    expect(isStreamId("18446744073709551615-18446744073709551615")).toBe(true);
    for (const bad of ["", "12", "12-", "-1", "12-ab", "1-2-3", "18446744073709551616-0", " 1-0"]) {
      expect(isStreamId(bad), bad).toBe(false);
    }
    expect(compareStreamIds("9-0", "10-0")).toBeLessThan(0);
    expect(compareStreamIds("10-2", "10-10")).toBeLessThan(0);
    expect(compareStreamIds("10-0", "10-0")).toBe(0);
  });
});

describe("subscription position", () => {
  it("starts from the earliest retained entry without a cursor or with a malformed one", () => {
    expect(initialPosition(undefined)).toEqual({ mode: "earliest" });
    expect(initialPosition(null)).toEqual({ mode: "earliest" });
    expect(initialPosition("not-an-id")).toEqual({ mode: "earliest" });
    expect(initialPosition("12-0")).toEqual({ mode: "verify", cursor: "12-0" });
  });

  it("earliest: reads the window, positioned just before its oldest entry", () => {
    const entries = stream(10, 3, { firstPrev: "9-0" });
    expect(step({ mode: "earliest" }, entries)).toEqual({
      kind: "read",
      entries,
      position: follow("9-0", null),
    });
  });

  it("earliest on an empty stream waits for the first entry ever", () => {
    expect(step({ mode: "earliest" }, [])).toEqual({
      kind: "read",
      entries: [],
      position: follow(ORIGIN_ID, null),
    });
  });

  it("verify: a cursor in the window resumes strictly after it", () => {
    const entries = stream(10, 4);
    const result = step({ mode: "verify", cursor: "11-0" }, entries);
    expect(result).toMatchObject({ kind: "read", position: follow("11-0", "11-0") });
    expect(result.kind === "read" && ids(result.entries)).toEqual(["12-0", "13-0"]);
  });

  it("verify: the entry just before the window resumes with nothing lost", () => {
    const entries = stream(10, 3, { firstPrev: "9-0" });
    const result = step({ mode: "verify", cursor: "9-0" }, entries);
    expect(result.kind === "read" && ids(result.entries)).toEqual(["10-0", "11-0", "12-0"]);
  });

  it("verify: an older cursor is a gap naming it", () => {
    const entries = stream(10, 3, { firstPrev: "9-0" });
    expect(step({ mode: "verify", cursor: "5-0" }, entries)).toEqual({
      kind: "gap",
      gap: {
        requestedEventId: "5-0",
        earliestAvailableEventId: "10-0",
        latestAvailableEventId: "12-0",
      },
    });
  });

  it("verify: an id inside or after the window that is no entry replays from the earliest", () => {
    const entries = stream(10, 3);
    expect(step({ mode: "verify", cursor: "10-5" }, entries)).toEqual({ kind: "restart" });
    expect(step({ mode: "verify", cursor: "99-0" }, entries)).toEqual({ kind: "restart" });
    expect(step({ mode: "verify", cursor: "10-0" }, [])).toEqual({ kind: "restart" });
  });

  it("follow: the gap names the last delivered event and the newest event before an end", () => {
    const entries = stream(20, 2, { firstPrev: "19-0", ended: true });
    expect(step(follow("15-0", "15-0"), entries)).toEqual({
      kind: "gap",
      gap: {
        requestedEventId: "15-0",
        earliestAvailableEventId: "20-0",
        latestAvailableEventId: "21-0",
      },
    });
  });

  it("follow from the origin: fine while the first entry ever is retained, a gap after", () => {
    const whole = stream(10, 2);
    expect(step(follow(ORIGIN_ID, null), whole)).toMatchObject({ kind: "read", entries: whole });
    const trimmed = stream(12, 2, { firstPrev: "11-0" });
    expect(step(follow(ORIGIN_ID, null), trimmed)).toMatchObject({
      kind: "gap",
      gap: { requestedEventId: null },
    });
  });

  it("follow: a stream that vanished under a positioned subscriber is dropped", () => {
    expect(step(follow("10-0", "10-0"), [])).toEqual({ kind: "dropped" });
  });
});
