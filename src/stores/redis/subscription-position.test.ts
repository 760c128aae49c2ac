import { describe, expect, it } from "vitest";
import type { StoredEntry } from "./stream-entries.js";
import {
  compareStreamIds,
  type EventCursor,
  formatEventId,
  isStreamId,
  newEpoch,
  ORIGIN_ID,
  parseEventId,
} from "./stream-ids.js";
import type { StreamSnapshot } from "./stream-snapshot.js";
import {
  type FollowPosition,
  initialPosition,
  nextStep,
  type Position,
  readStart,
} from "./subscription-position.js";

const EPOCH = "0123456789ab";
const OTHER_EPOCH = "ba9876543210";

/** A stream of events `10-0`, `11-0`, … (each linked to its predecessor), optionally ended. */
function stream(
  firstMs: number,
  count: number,
  options: { firstPrev?: string; ended?: boolean; epoch?: string } = {},
) {
  const epoch = options.epoch ?? EPOCH;
  const entries: StoredEntry[] = [];
  let prev = options.firstPrev ?? ORIGIN_ID;
  for (let n = 0; n < count; n += 1) {
    const id = `${firstMs + n}-0`;
    const event = { id: formatEventId(id, epoch), event: "values", data: n };
    entries.push({ kind: "event", id, prev, epoch, event });
    prev = id;
  }
  if (options.ended) entries.push({ kind: "end", id: `${firstMs + count}-0`, prev, epoch });
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

/** The event id of entry `id` in the default epoch. */
const eid = (id: string, epoch = EPOCH): string => formatEventId(id, epoch);

const follow = (
  after: string,
  lastSeenId: string | null,
  epoch: string | null = EPOCH,
): FollowPosition => ({ mode: "follow", after, epoch, lastSeenId });

function cursor(id: string, epoch = EPOCH): EventCursor {
  const parsed = parseEventId(formatEventId(id, epoch));
  if (!parsed) throw new Error(`not a cursor: ${id}`);
  return parsed;
}

const verify = (id: string, epoch = EPOCH): Position => ({
  mode: "verify",
  cursor: cursor(id, epoch),
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

  it("event ids are the entry id and the stream's epoch; nothing else parses as a cursor", () => {
    const epoch = newEpoch();
    expect(epoch).toMatch(/^[0-9a-f]{12}$/);
    expect(newEpoch()).not.toBe(epoch);
    expect(parseEventId(`12-3.${epoch}`)).toEqual({ id: "12-3", epoch, text: `12-3.${epoch}` });
    for (const bad of [
      "12-3",
      "-1",
      "12-3.",
      `12-3.${epoch}0`,
      `12.${epoch}`,
      `12-3.XYZ456789abc`,
    ]) {
      expect(parseEventId(bad), bad).toBeNull();
    }
  });
});

describe("subscription position", () => {
  it("starts from the earliest retained entry without a cursor or with one it did not issue", () => {
    expect(initialPosition(undefined)).toEqual({ mode: "earliest" });
    expect(initialPosition(null)).toEqual({ mode: "earliest" });
    expect(initialPosition("not-an-id")).toEqual({ mode: "earliest" });
    expect(initialPosition("-1")).toEqual({ mode: "earliest" });
    expect(initialPosition("12-0")).toEqual({ mode: "earliest" });
    expect(initialPosition(eid("12-0"))).toEqual(verify("12-0"));
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
      position: follow(ORIGIN_ID, null, null),
    });
  });

  it("verify: a cursor in the window resumes strictly after it", () => {
    const entries = stream(10, 4);
    const result = step(verify("11-0"), entries);
    expect(result).toMatchObject({ kind: "read", position: follow("11-0", eid("11-0")) });
    expect(result.kind === "read" && ids(result.entries)).toEqual(["12-0", "13-0"]);
  });

  it("verify: the entry just before the window resumes with nothing lost", () => {
    const entries = stream(10, 3, { firstPrev: "9-0" });
    const result = step(verify("9-0"), entries);
    expect(result.kind === "read" && ids(result.entries)).toEqual(["10-0", "11-0", "12-0"]);
  });

  it("verify: an older cursor is a gap naming it", () => {
    const entries = stream(10, 3, { firstPrev: "9-0" });
    expect(step(verify("5-0"), entries)).toEqual({
      kind: "gap",
      gap: {
        requestedEventId: eid("5-0"),
        earliestAvailableEventId: eid("10-0"),
        latestAvailableEventId: eid("12-0"),
      },
    });
  });

  it("verify: an id of the epoch inside or after the window that is no entry is a gap", () => {
    const entries = stream(10, 3);
    for (const id of ["10-5", "99-0"]) {
      expect(step(verify(id), entries), id).toMatchObject({
        kind: "gap",
        gap: { requestedEventId: eid(id) },
      });
    }
  });

  it("verify: a cursor into a stream that is gone is a gap, not a wait for a new one", () => {
    expect(step(verify("10-0"), [])).toEqual({
      kind: "gap",
      gap: {
        requestedEventId: eid("10-0"),
        earliestAvailableEventId: null,
        latestAvailableEventId: null,
      },
    });
  });

  it("verify: a cursor of an earlier incarnation is a gap even where its id fits the new one", () => {
    // The new stream starts after the origin and even reuses the cursor's entry id.
    const reborn = stream(10, 3, { epoch: OTHER_EPOCH });
    for (const id of ["5-0", "10-0", "11-0", "99-0"]) {
      expect(step(verify(id), reborn), id).toEqual({
        kind: "gap",
        gap: {
          requestedEventId: eid(id),
          earliestAvailableEventId: eid("10-0", OTHER_EPOCH),
          latestAvailableEventId: eid("12-0", OTHER_EPOCH),
        },
      });
    }
  });

  it("follow: the gap names the last delivered event and the newest event before an end", () => {
    const entries = stream(20, 2, { firstPrev: "19-0", ended: true });
    expect(step(follow("15-0", eid("15-0")), entries)).toEqual({
      kind: "gap",
      gap: {
        requestedEventId: eid("15-0"),
        earliestAvailableEventId: eid("20-0"),
        latestAvailableEventId: eid("21-0"),
      },
    });
  });

  it("follow from the origin: fine while the first entry ever is retained, a gap after", () => {
    const whole = stream(10, 2);
    expect(step(follow(ORIGIN_ID, null, null), whole)).toEqual({
      kind: "read",
      entries: whole,
      position: follow(ORIGIN_ID, null, EPOCH),
    });
    const trimmed = stream(12, 2, { firstPrev: "11-0" });
    expect(step(follow(ORIGIN_ID, null, null), trimmed)).toMatchObject({
      kind: "gap",
      gap: { requestedEventId: null },
    });
    expect(step(follow(ORIGIN_ID, null, null), [])).toMatchObject({ kind: "read", entries: [] });
  });

  it("follow: a stream that vanished under a positioned subscriber is a gap", () => {
    expect(step(follow("10-0", eid("10-0")), [])).toEqual({
      kind: "gap",
      gap: {
        requestedEventId: eid("10-0"),
        earliestAvailableEventId: null,
        latestAvailableEventId: null,
      },
    });
  });

  it("follow: a new incarnation is a gap, even one that starts after the origin", () => {
    expect(step(follow("10-0", eid("10-0")), stream(11, 2, { epoch: OTHER_EPOCH }))).toMatchObject({
      kind: "gap",
      gap: { requestedEventId: eid("10-0") },
    });
    // Its entries even reuse the followed entry's id: the epoch tells them apart.
    const reborn = stream(10, 3, { epoch: OTHER_EPOCH });
    expect(step(follow("10-0", eid("10-0")), reborn)).toMatchObject({ kind: "gap" });
    // Once the origin follower has seen an incarnation, it is bound to it.
    expect(step(follow(ORIGIN_ID, null, EPOCH), reborn)).toMatchObject({ kind: "gap" });
  });
});
