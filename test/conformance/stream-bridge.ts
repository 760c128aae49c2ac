import { describe, expect, it } from "vitest";
import { OwnershipLostError } from "../../src/core/errors.js";
import type { StreamBridge, StreamItem, SubscribeOptions } from "../../src/ports/stream-bridge.js";
import {
  bridgesPerTest,
  type StreamBridgeFixture,
  type StreamBridgeOptions,
} from "./stream-bridge-fixture.js";
import { describeStreamBridgeWatch } from "./stream-bridge-watch.js";

export type { StreamBridgeFixture, StreamBridgeOptions } from "./stream-bridge-fixture.js";

/** Long enough that a heartbeat never shows up in tests that do not ask for one. */
const QUIET_HEARTBEAT_MS = 600_000;

export function describeStreamBridge(
  name: string,
  makeBridge: (options: StreamBridgeOptions) => Promise<StreamBridgeFixture>,
): void {
  describe(`StreamBridge contract: ${name}`, () => {
    const perTest = bridgesPerTest(makeBridge);
    const open = perTest.open;

    /** Reads until the bridge ends the iteration (after `end` or `gap`), skipping heartbeats. */
    async function readAll(
      bridge: StreamBridge,
      options: SubscribeOptions = {},
    ): Promise<StreamItem[]> {
      const items: StreamItem[] = [];
      for await (const item of bridge.subscribe(perTest.runId, {
        heartbeatMs: QUIET_HEARTBEAT_MS,
        ...options,
      })) {
        if (item.kind !== "heartbeat") items.push(item);
      }
      return items;
    }

    async function publishMany(bridge: StreamBridge, count: number): Promise<string[]> {
      const ids: string[] = [];
      for (let n = 0; n < count; n += 1)
        ids.push(await bridge.publish(perTest.runId, "values", { n }));
      return ids;
    }

    const eventIds = (items: StreamItem[]): string[] =>
      items.flatMap((item) => (item.kind === "event" ? [item.event.id] : []));
    const kinds = (items: StreamItem[]): string[] => items.map((item) => item.kind);

    describe("delivery", () => {
      it("delivers published events in order with their data, then end", async () => {
        const bridge = await open();
        const ids = await publishMany(bridge, 5);
        await bridge.publish(perTest.runId, "custom", {
          nested: { list: [1, "two"] },
          text: "héllo",
        });
        await bridge.publishEnd(perTest.runId);

        const items = await readAll(bridge);

        expect(kinds(items)).toEqual([...Array(6).fill("event"), "end"]);
        expect(eventIds(items).slice(0, 5)).toEqual(ids);
        expect(items[0]).toEqual({
          kind: "event",
          event: { id: ids[0], event: "values", data: { n: 0 } },
        });
        expect(items[5]).toMatchObject({
          kind: "event",
          event: { event: "custom", data: { nested: { list: [1, "two"] }, text: "héllo" } },
        });
        expect(new Set(ids).size).toBe(ids.length);
      });

      it("wakes a waiting subscriber when an event is published", async () => {
        const bridge = await open();
        const iterator = bridge
          .subscribe(perTest.runId, { heartbeatMs: QUIET_HEARTBEAT_MS })
          [Symbol.asyncIterator]();
        const pending = iterator.next();
        const id = await bridge.publish(perTest.runId, "values", { live: true });
        await expect(pending).resolves.toEqual({
          done: false,
          value: { kind: "event", event: { id, event: "values", data: { live: true } } },
        });
        await iterator.return?.();
      });

      it("gives every subscriber the same ordered stream", async () => {
        const bridge = await open();
        const early = await publishMany(bridge, 3);
        const readers = Array.from({ length: 5 }, () => readAll(bridge));
        const late = await publishMany(bridge, 20);
        await bridge.publishEnd(perTest.runId);

        const results = await Promise.all(readers);

        for (const items of results) {
          expect(eventIds(items)).toEqual([...early, ...late]);
          expect(items.at(-1)).toEqual({ kind: "end" });
        }
      });

      it("reports whether a stream exists", async () => {
        const bridge = await open();
        expect(await bridge.streamExists(perTest.runId)).toBe(false);
        await bridge.publish(perTest.runId, "values", {});
        expect(await bridge.streamExists(perTest.runId)).toBe(true);
      });
    });

    describe("resume with Last-Event-ID", () => {
      it("resumes right after every possible cursor, with no loss and no duplicate", async () => {
        const bridge = await open();
        const ids = await publishMany(bridge, 10);
        await bridge.publishEnd(perTest.runId);

        for (const [index, cursor] of ids.entries()) {
          const items = await readAll(bridge, { lastEventId: cursor });
          expect(eventIds(items), `after ${cursor}`).toEqual(ids.slice(index + 1));
          expect(items.at(-1)).toEqual({ kind: "end" });
        }
      });

      it("resumes from the latest id and then follows live events", async () => {
        const bridge = await open();
        const ids = await publishMany(bridge, 3);
        const reading = readAll(bridge, { lastEventId: ids[2] });
        const more = await publishMany(bridge, 2);
        await bridge.publishEnd(perTest.runId);
        expect(eventIds(await reading)).toEqual(more);
      });

      it("replays from the earliest retained event for a malformed or unknown cursor", async () => {
        const bridge = await open();
        const ids = await publishMany(bridge, 4);
        await bridge.publishEnd(perTest.runId);
        for (const cursor of ["not-an-id", "12-ab", "9999999999999-999"]) {
          expect(eventIds(await readAll(bridge, { lastEventId: cursor })), cursor).toEqual(ids);
        }
      });

      it("treats a null cursor as no cursor", async () => {
        const bridge = await open();
        const ids = await publishMany(bridge, 2);
        await bridge.publishEnd(perTest.runId);
        expect(eventIds(await readAll(bridge, { lastEventId: null }))).toEqual(ids);
      });
    });

    describe("retention and gaps", () => {
      it("sends a gap and stops when the cursor was evicted", async () => {
        const bridge = await open({ queueMaxSize: 4 });
        const ids = await publishMany(bridge, 10);

        const items = await readAll(bridge, { lastEventId: ids[2] });

        expect(items).toEqual([
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

      it("without a cursor starts at the earliest retained event", async () => {
        const bridge = await open({ queueMaxSize: 4 });
        const ids = await publishMany(bridge, 10);
        await bridge.publishEnd(perTest.runId);
        expect(eventIds(await readAll(bridge))).toEqual(ids.slice(6));
      });

      it("from the first event: the whole stream while its first event is retained", async () => {
        const bridge = await open({ queueMaxSize: 4 });
        const ids = await publishMany(bridge, 3);
        await bridge.publishEnd(perTest.runId);
        expect(eventIds(await readAll(bridge, { fromFirst: true }))).toEqual(ids);
      });

      it("from the first event: a gap once the window has moved past it", async () => {
        const bridge = await open({ queueMaxSize: 4 });
        await publishMany(bridge, 10);
        await bridge.publishEnd(perTest.runId);
        // The run's first events are gone: the subscriber is told, not handed the rest as whole.
        expect(kinds(await readAll(bridge, { fromFirst: true }))).toEqual(["gap"]);
      });

      it("sends a gap and stops when a live subscriber falls behind the window", async () => {
        const bridge = await open({ queueMaxSize: 4 });
        const iterator = bridge
          .subscribe(perTest.runId, { heartbeatMs: QUIET_HEARTBEAT_MS })
          [Symbol.asyncIterator]();
        const first = iterator.next();
        const [firstId] = await publishMany(bridge, 1);
        expect(await first).toMatchObject({ value: { kind: "event", event: { id: firstId } } });

        // The subscriber does not read while nine more events push the window past it.
        const rest = await publishMany(bridge, 9);

        expect(await iterator.next()).toEqual({
          done: false,
          value: {
            kind: "gap",
            gap: {
              requestedEventId: firstId,
              earliestAvailableEventId: rest[5],
              latestAvailableEventId: rest[8],
            },
          },
        });
        expect((await iterator.next()).done).toBe(true);
      });
    });

    describe("end", () => {
      it("delivers end after a full window, once, even if publishEnd is repeated", async () => {
        const bridge = await open({ queueMaxSize: 4 });
        const ids = await publishMany(bridge, 4);
        await bridge.publishEnd(perTest.runId);
        await bridge.publishEnd(perTest.runId);

        const items = await readAll(bridge);

        expect(eventIds(items)).toEqual(ids);
        expect(kinds(items)).toEqual(["event", "event", "event", "event", "end"]);
      });

      it("ends at once for a cursor on the last event of an ended stream", async () => {
        const bridge = await open();
        const ids = await publishMany(bridge, 3);
        await bridge.publishEnd(perTest.runId);
        expect(await readAll(bridge, { lastEventId: ids[2] })).toEqual([{ kind: "end" }]);
      });

      it("ends a stream that never had events", async () => {
        const bridge = await open();
        await bridge.publishEnd(perTest.runId);
        expect(await readAll(bridge)).toEqual([{ kind: "end" }]);
      });

      it("wakes a waiting subscriber with end, then stops", async () => {
        const bridge = await open();
        const iterator = bridge
          .subscribe(perTest.runId, { heartbeatMs: QUIET_HEARTBEAT_MS })
          [Symbol.asyncIterator]();
        const pending = iterator.next();
        await bridge.publishEnd(perTest.runId);
        expect(await pending).toEqual({ done: false, value: { kind: "end" } });
        expect((await iterator.next()).done).toBe(true);
      });
    });

    describe("write fence", () => {
      it("a fenced publish after a peer's end is refused and appends nothing", async () => {
        const bridge = await open();
        const owner = { fence: { runId: perTest.runId, workerId: "fence-owner" } };
        const peer = { fence: { runId: perTest.runId, workerId: "fence-peer" } };
        const first = await bridge.publish(perTest.runId, "values", { n: 0 }, owner);
        // The peer that recovered the run ends its stream.
        await bridge.publishEnd(perTest.runId, peer);
        await expect(
          bridge.publish(perTest.runId, "values", { n: 1 }, owner),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        await bridge.publishEnd(perTest.runId, owner);
        const items = await readAll(bridge);
        expect(eventIds(items)).toEqual([first]);
        expect(kinds(items)).toEqual(["event", "end"]);
      });

      it("a fenced publish by another writer than the stream's is refused", async () => {
        const bridge = await open();
        const first = await bridge.publish(
          perTest.runId,
          "values",
          { n: 0 },
          { fence: { runId: perTest.runId, workerId: "w-a" } },
        );
        await expect(
          bridge.publish(
            perTest.runId,
            "values",
            { n: 1 },
            { fence: { runId: perTest.runId, workerId: "w-b" } },
          ),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        await bridge.publishEnd(perTest.runId);
        expect(eventIds(await readAll(bridge))).toEqual([first]);
      });
    });

    describe("heartbeat", () => {
      it("yields a heartbeat while nothing is published, and still delivers afterwards", async () => {
        const bridge = await open();
        const iterator = bridge
          .subscribe(perTest.runId, { heartbeatMs: 20 })
          [Symbol.asyncIterator]();

        expect(await iterator.next()).toEqual({ done: false, value: { kind: "heartbeat" } });

        const id = await bridge.publish(perTest.runId, "values", {});
        await bridge.publishEnd(perTest.runId);
        const rest: StreamItem[] = [];
        for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
          if (step.value.kind !== "heartbeat") rest.push(step.value);
        }
        expect(eventIds(rest)).toEqual([id]);
        expect(rest.at(-1)).toEqual({ kind: "end" });
      });
    });

    describe("abort", () => {
      it("ends the iteration of a waiting subscriber when its signal aborts", async () => {
        const bridge = await open();
        const controller = new AbortController();
        const iterator = bridge
          .subscribe(perTest.runId, { signal: controller.signal, heartbeatMs: QUIET_HEARTBEAT_MS })
          [Symbol.asyncIterator]();
        const first = iterator.next();
        await bridge.publish(perTest.runId, "values", {});
        expect((await first).value).toMatchObject({ kind: "event" });

        const parked = iterator.next();
        // One macrotask turn, so the subscriber is parked waiting for news when the abort lands.
        await new Promise((resolve) => setImmediate(resolve));
        controller.abort();
        // Resolves (rather than hanging until the test timeout) and ends the iteration.
        expect(await parked).toEqual({ done: true, value: undefined });
      });

      it("yields nothing for an already aborted signal", async () => {
        const bridge = await open();
        await publishMany(bridge, 2);
        expect(await readAll(bridge, { signal: AbortSignal.abort() })).toEqual([]);
      });

      it("stops between events once aborted", async () => {
        const bridge = await open();
        await publishMany(bridge, 3);
        const controller = new AbortController();
        const iterator = bridge
          .subscribe(perTest.runId, { signal: controller.signal, heartbeatMs: QUIET_HEARTBEAT_MS })
          [Symbol.asyncIterator]();
        expect((await iterator.next()).value).toMatchObject({ kind: "event" });
        controller.abort();
        expect((await iterator.next()).done).toBe(true);
      });
    });

    describe("cleanup", () => {
      it("drops the stream at once by default", async () => {
        const bridge = await open();
        await publishMany(bridge, 2);
        await bridge.publishEnd(perTest.runId);
        await bridge.cleanup(perTest.runId);
        expect(await bridge.streamExists(perTest.runId)).toBe(false);
      });

      it("drops the stream only after the delay", async () => {
        const bridge = await open();
        await publishMany(bridge, 1);
        await bridge.publishEnd(perTest.runId);
        const cleaning = bridge.cleanup(perTest.runId, { delayMs: 20 });
        expect(await bridge.streamExists(perTest.runId)).toBe(true);
        await cleaning;
        expect(await bridge.streamExists(perTest.runId)).toBe(false);
      });

      it("a fresh subscriber of a stream re-created after cleanup gets it whole, with no gap", async () => {
        const bridge = await open({ queueMaxSize: 4 });
        await publishMany(bridge, 6);
        await bridge.publishEnd(perTest.runId);
        await bridge.cleanup(perTest.runId);
        const ids = await publishMany(bridge, 3);
        await bridge.publishEnd(perTest.runId);
        const items = await readAll(bridge);
        expect(eventIds(items)).toEqual(ids);
        expect(kinds(items)).toEqual(["event", "event", "event", "end"]);
      });

      it("accepts cleanup of an unknown run", async () => {
        const bridge = await open();
        await expect(bridge.cleanup(perTest.runId)).resolves.toBeUndefined();
      });
    });

    describe("producer lease", () => {
      it("accepts the lease calls in the worker's order", async () => {
        const bridge = await open();
        expect(await bridge.startProducerLease(perTest.runId)).toBe(true);
        bridge.transferProducerLease(perTest.runId, { name: `run-finalization-${perTest.runId}` });
        await bridge.publishEnd(perTest.runId);
        await expect(bridge.finishProducerLease(perTest.runId)).resolves.toBeUndefined();
      });
    });

    describeStreamBridgeWatch(makeBridge);
  });
}
