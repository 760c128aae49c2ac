import { describe, expect, it } from "vitest";
import type {
  StreamBridge,
  StreamWatch,
  SubscribeOptions,
  WatchItem,
} from "../../src/ports/stream-bridge.js";
import {
  bridgesPerTest,
  type StreamBridgeFixture,
  type StreamBridgeOptions,
} from "./stream-bridge-fixture.js";

/** Long enough that a heartbeat never shows up in tests that do not ask for one. */
const QUIET_HEARTBEAT_MS = 600_000;
/** How long a check that nothing more arrives waits (a Redis read returns well within it). */
const SETTLE_MS = 100;

const LAST_KINDS = new Set(["end", "gap", "dropped", "failed"]);

interface Recording {
  readonly items: WatchItem[];
  readonly watch: StreamWatch;
  /** Resolves once `done(items)` holds, checked after each item. */
  until(done: (items: WatchItem[]) => boolean): Promise<void>;
  /** Resolves once the watch handed over its last item (`end`, `gap`, `dropped`, `failed`). */
  finished(): Promise<WatchItem[]>;
}

const eventIds = (items: WatchItem[]): string[] =>
  items.flatMap((item) => (item.kind === "event" ? [item.event.id] : []));
const kinds = (items: WatchItem[]): string[] => items.map((item) => item.kind);
const quiet = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

export function describeStreamBridgeWatch(
  makeBridge: (options: StreamBridgeOptions) => Promise<StreamBridgeFixture>,
): void {
  describe("watch", () => {
    const perTest = bridgesPerTest(makeBridge);
    const open = perTest.open;

    /**
     * A watch of the test's run recording what it hands over (heartbeats skipped unless asked
     * for); `onEach` runs inside `onItem`, as a consumer that pauses when full would.
     */
    function record(
      bridge: StreamBridge,
      options: SubscribeOptions & { keepHeartbeats?: boolean } = {},
      onEach?: (item: WatchItem, watch: StreamWatch) => void,
    ): Recording {
      const items: WatchItem[] = [];
      let wake: (() => void) | null = null;
      const { keepHeartbeats = false, ...subscribeOptions } = options;
      const watch = bridge.watch(
        perTest.runId,
        { heartbeatMs: QUIET_HEARTBEAT_MS, ...subscribeOptions },
        (item) => {
          if (item.kind !== "heartbeat" || keepHeartbeats) items.push(item);
          onEach?.(item, watch);
          const resume = wake;
          wake = null;
          resume?.();
        },
      );
      const until = async (done: (seen: WatchItem[]) => boolean): Promise<void> => {
        while (!done(items)) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      };
      return {
        items,
        watch,
        until,
        finished: async () => {
          await until((seen) => LAST_KINDS.has(seen.at(-1)?.kind ?? ""));
          return items;
        },
      };
    }

    async function publishMany(bridge: StreamBridge, count: number): Promise<string[]> {
      const ids: string[] = [];
      for (let n = 0; n < count; n += 1)
        ids.push(await bridge.publish(perTest.runId, "values", { n }));
      return ids;
    }

    it("hands over published events in order with their data, then end, and closes", async () => {
      const bridge = await open();
      const ids = await publishMany(bridge, 3);
      const recording = record(bridge);
      recording.watch.resume();
      const live = await publishMany(bridge, 2);
      await bridge.publishEnd(perTest.runId);

      const items = await recording.finished();

      expect(kinds(items)).toEqual(["event", "event", "event", "event", "event", "end"]);
      expect(eventIds(items)).toEqual([...ids, ...live]);
      expect(items[0]).toEqual({
        kind: "event",
        event: { id: ids[0], event: "values", data: { n: 0 } },
      });
      await bridge.publish(perTest.runId, "values", { late: true });
      await quiet();
      expect(items).toHaveLength(6);
    });

    it("starts paused: nothing is handed over before resume", async () => {
      const bridge = await open();
      const ids = await publishMany(bridge, 2);
      const recording = record(bridge);
      await quiet();
      expect(recording.items).toEqual([]);
      recording.watch.resume();
      await recording.until((items) => items.length === 2);
      expect(eventIds(recording.items)).toEqual(ids);
      recording.watch.close();
    });

    it("holds items back while paused and hands the rest over in order on resume", async () => {
      const bridge = await open();
      const ids = await publishMany(bridge, 5);
      await bridge.publishEnd(perTest.runId);
      // The consumer is full after every item, as an SSE response whose socket buffer is.
      const recording = record(bridge, {}, (_item, watch) => watch.pause());
      recording.watch.resume();
      await recording.until((items) => items.length === 1);
      await quiet();
      expect(recording.items).toHaveLength(1);
      while (!LAST_KINDS.has(recording.items.at(-1)?.kind ?? "")) {
        const seen = recording.items.length;
        recording.watch.resume();
        await recording.until((items) => items.length === seen + 1);
      }
      expect(eventIds(recording.items)).toEqual(ids);
      expect(recording.items.at(-1)).toEqual({ kind: "end" });
    });

    it("resumes right after every possible cursor, then end", async () => {
      const bridge = await open();
      const ids = await publishMany(bridge, 6);
      await bridge.publishEnd(perTest.runId);
      for (const [index, cursor] of ids.entries()) {
        const recording = record(bridge, { lastEventId: cursor });
        recording.watch.resume();
        const items = await recording.finished();
        expect(eventIds(items), `after ${cursor}`).toEqual(ids.slice(index + 1));
        expect(items.at(-1)).toEqual({ kind: "end" });
      }
    });

    it("resumes from the latest id and then follows live events", async () => {
      const bridge = await open();
      const ids = await publishMany(bridge, 3);
      const recording = record(bridge, { lastEventId: ids[2] });
      recording.watch.resume();
      const more = await publishMany(bridge, 2);
      await bridge.publishEnd(perTest.runId);
      expect(eventIds(await recording.finished())).toEqual(more);
    });

    it("replays from the earliest retained event for a cursor the bridge did not issue", async () => {
      const bridge = await open();
      const ids = await publishMany(bridge, 3);
      await bridge.publishEnd(perTest.runId);
      const recording = record(bridge, { lastEventId: "not-an-id" });
      recording.watch.resume();
      expect(eventIds(await recording.finished())).toEqual(ids);
    });

    it("hands over a gap and closes when the cursor was evicted", async () => {
      const bridge = await open({ queueMaxSize: 4 });
      const ids = await publishMany(bridge, 10);
      const recording = record(bridge, { lastEventId: ids[2] });
      recording.watch.resume();
      expect(await recording.finished()).toEqual([
        {
          kind: "gap",
          gap: {
            requestedEventId: ids[2],
            earliestAvailableEventId: ids[6],
            latestAvailableEventId: ids[9],
          },
        },
      ]);
    });

    it("hands over a gap when the window moved past a paused watch", async () => {
      const bridge = await open({ queueMaxSize: 4 });
      const recording = record(bridge, {}, (_item, watch) => watch.pause());
      recording.watch.resume();
      const [firstId] = await publishMany(bridge, 1);
      await recording.until((items) => items.length === 1);
      expect(eventIds(recording.items)).toEqual([firstId]);

      // Paused (the consumer is full) while nine more events push the window past it.
      const rest = await publishMany(bridge, 9);
      recording.watch.resume();

      await recording.until((items) => items.length === 2);
      expect(recording.items[1]).toEqual({
        kind: "gap",
        gap: {
          requestedEventId: firstId,
          earliestAvailableEventId: rest[5],
          latestAvailableEventId: rest[8],
        },
      });
    });

    it("wakes a waiting watch with end; a stream that never had events ends too", async () => {
      const bridge = await open();
      const recording = record(bridge);
      recording.watch.resume();
      await quiet();
      await bridge.publishEnd(perTest.runId);
      expect(await recording.finished()).toEqual([{ kind: "end" }]);
    });

    it("hands over a heartbeat while resumed and idle, and still delivers afterwards", async () => {
      const bridge = await open();
      const recording = record(bridge, { heartbeatMs: 20, keepHeartbeats: true });
      recording.watch.resume();
      await recording.until((items) => items.length > 0);
      expect(recording.items[0]).toEqual({ kind: "heartbeat" });

      const id = await bridge.publish(perTest.runId, "values", {});
      await bridge.publishEnd(perTest.runId);
      const items = (await recording.finished()).filter((item) => item.kind !== "heartbeat");
      expect(eventIds(items)).toEqual([id]);
      expect(items.at(-1)).toEqual({ kind: "end" });
    });

    it("hands nothing more over once its signal aborts or it is closed", async () => {
      const bridge = await open();
      const controller = new AbortController();
      const aborted = record(bridge, { signal: controller.signal });
      const closed = record(bridge);
      aborted.watch.resume();
      closed.watch.resume();
      await publishMany(bridge, 1);
      await aborted.until((items) => items.length === 1);
      await closed.until((items) => items.length === 1);

      controller.abort();
      closed.watch.close();
      closed.watch.resume();
      await publishMany(bridge, 2);
      await bridge.publishEnd(perTest.runId);
      await quiet();

      expect(kinds(aborted.items)).toEqual(["event"]);
      expect(kinds(closed.items)).toEqual(["event"]);
    });

    it("hands nothing over for an already aborted signal", async () => {
      const bridge = await open();
      await publishMany(bridge, 2);
      await bridge.publishEnd(perTest.runId);
      const recording = record(bridge, { signal: AbortSignal.abort() });
      recording.watch.resume();
      await quiet();
      expect(recording.items).toEqual([]);
    });
  });
}
