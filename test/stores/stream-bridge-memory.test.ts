import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/core/clock.js";
import { ConfigError } from "../../src/core/errors.js";
import type { StreamItem } from "../../src/ports/stream-bridge.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { describeStreamBridge } from "../conformance/stream-bridge.js";

// The contract's window is the whole retention: no extra lag held for slow live subscribers
// (what the memory bridge holds back for them is pinned in its own watch tests).
describeStreamBridge("memory", async (options) => ({
  bridge: new MemoryStreamBridge({ ...options, subscriberLagMax: 0 }),
}));

async function readAll(iterable: AsyncIterable<StreamItem>): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe("MemoryStreamBridge specifics", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("ids are {epoch_ms}-{absolute seq}, continuing past eviction", async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const bridge = new MemoryStreamBridge({ queueMaxSize: 2, clock });
    expect(await bridge.publish("r", "values", 0)).toBe("1700000000000-0");
    clock.advance(5);
    expect(await bridge.publish("r", "values", 1)).toBe("1700000000005-1");
    await bridge.publish("r", "values", 2);
    expect(await bridge.publish("r", "values", 3)).toBe("1700000000005-3");
  });

  it("retains 256 events by default", async () => {
    const bridge = new MemoryStreamBridge();
    const ids: string[] = [];
    for (let n = 0; n < 300; n += 1) ids.push(await bridge.publish("r", "values", n));
    await bridge.publishEnd("r");
    const items = await readAll(bridge.subscribe("r", { lastEventId: ids[10] }));
    expect(items).toEqual([
      {
        kind: "gap",
        gap: {
          requestedEventId: ids[10],
          earliestAvailableEventId: ids[44],
          latestAvailableEventId: ids[299],
        },
      },
    ]);
  });

  it("resumes without a gap from the event just before the window (nothing was lost)", async () => {
    const bridge = new MemoryStreamBridge({ queueMaxSize: 3 });
    const ids: string[] = [];
    for (let n = 0; n < 6; n += 1) ids.push(await bridge.publish("r", "values", n));
    await bridge.publishEnd("r");
    const items = await readAll(bridge.subscribe("r", { lastEventId: ids[2] }));
    expect(items.map((item) => (item.kind === "event" ? item.event.id : item.kind))).toEqual([
      ...ids.slice(3),
      "end",
    ]);
  });

  it("rejects a window size below one", () => {
    expect(() => new MemoryStreamBridge({ queueMaxSize: 0 })).toThrow(ConfigError);
  });

  it("hasEnded reflects publishEnd", async () => {
    const bridge = new MemoryStreamBridge();
    expect(bridge.hasEnded("r")).toBe(false);
    await bridge.publish("r", "values", {});
    expect(bridge.hasEnded("r")).toBe(false);
    await bridge.publishEnd("r");
    expect(bridge.hasEnded("r")).toBe(true);
  });

  it("records the producer lease: started → transferred(owner) → finished", async () => {
    const bridge = new MemoryStreamBridge();
    expect(bridge.producerLeaseState("r")).toBeUndefined();
    expect(await bridge.startProducerLease("r")).toBe(true);
    expect(bridge.producerLeaseState("r")).toEqual({ state: "started" });
    expect(await bridge.startProducerLease("r")).toBe(false);
    bridge.transferProducerLease("r", { name: "run-finalization-r" });
    expect(bridge.producerLeaseState("r")).toEqual({
      state: "transferred",
      owner: "run-finalization-r",
    });
    await bridge.finishProducerLease("r");
    expect(bridge.producerLeaseState("r")).toEqual({
      state: "finished",
      owner: "run-finalization-r",
    });
    await bridge.finishProducerLease("r");
    bridge.transferProducerLease("r", { name: "late" });
    expect(bridge.producerLeaseState("r")).toEqual({
      state: "finished",
      owner: "run-finalization-r",
    });
  });

  it("ignores transfer and finish when no lease was started", async () => {
    const bridge = new MemoryStreamBridge();
    bridge.transferProducerLease("r", { name: "x" });
    await bridge.finishProducerLease("r");
    expect(bridge.producerLeaseState("r")).toBeUndefined();
  });

  it("wakes subscribers on publish without any timer firing", async () => {
    vi.useFakeTimers();
    const bridge = new MemoryStreamBridge();
    const iterator = bridge.subscribe("r", { heartbeatMs: 1_000 })[Symbol.asyncIterator]();
    const pending = iterator.next();
    const id = await bridge.publish("r", "values", {});
    // No fake time is advanced: only the publish can have resumed the subscriber.
    expect(await pending).toMatchObject({ value: { kind: "event", event: { id } } });
    await iterator.return?.(undefined);
  });

  it("a late cleanup timer does not drop a stream created after the first cleanup", async () => {
    vi.useFakeTimers();
    const bridge = new MemoryStreamBridge();
    await bridge.publish("r", "values", "old");
    const delayed = bridge.cleanup("r", { delayMs: 60_000 });
    await bridge.cleanup("r");
    await bridge.publish("r", "values", "new");
    await vi.advanceTimersByTimeAsync(60_000);
    await delayed;
    expect(await bridge.streamExists("r")).toBe(true);
  });

  it("close() drops every stream, settles pending cleanups and stops subscribers", async () => {
    const bridge = new MemoryStreamBridge();
    await bridge.publish("a", "values", 1);
    const reading = readAll(bridge.subscribe("a", { heartbeatMs: 600_000 }));
    const delayed = bridge.cleanup("a", { delayMs: 600_000 });
    await bridge.close();
    await delayed;
    expect(await reading).toMatchObject([{ kind: "event" }]);
    expect(await bridge.streamExists("a")).toBe(false);
  });
});
