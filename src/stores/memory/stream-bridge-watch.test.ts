import { describe, expect, it } from "vitest";
import type { WatchItem } from "../../ports/stream-bridge.js";
import { MemoryStreamBridge } from "./stream-bridge.js";

const QUIET = 60_000;

function kinds(items: WatchItem[]): string[] {
  return items.map((item) => (item.kind === "event" ? String(item.event.data) : item.kind));
}

describe("MemoryStreamBridge.watch (push subscription)", () => {
  it("hands retained events over on resume and live ones inside publish, synchronously", async () => {
    const bridge = new MemoryStreamBridge();
    await bridge.publish("r", "values", "a");
    const items: WatchItem[] = [];
    const watch = bridge.watch("r", { heartbeatMs: QUIET }, (item) => items.push(item));
    expect(items).toEqual([]); // starts paused
    watch.resume();
    expect(kinds(items)).toEqual(["a"]);
    void bridge.publish("r", "values", "b");
    // No await between publish and here: the item was handed over by publish itself.
    expect(kinds(items)).toEqual(["a", "b"]);
    void bridge.publishEnd("r");
    expect(kinds(items)).toEqual(["a", "b", "end"]);
    void bridge.publish("r", "values", "late");
    expect(kinds(items)).toEqual(["a", "b", "end"]);
  });

  it("holds events back while paused and hands them over in order on resume", async () => {
    const bridge = new MemoryStreamBridge();
    const items: WatchItem[] = [];
    const watch = bridge.watch("r", { heartbeatMs: QUIET }, (item) => items.push(item));
    watch.resume();
    watch.pause();
    for (const data of ["a", "b", "c"]) await bridge.publish("r", "values", data);
    expect(items).toEqual([]);
    watch.resume();
    expect(kinds(items)).toEqual(["a", "b", "c"]);
    watch.close();
  });

  it("a consumer that pauses inside onItem gets one item per resume", async () => {
    const bridge = new MemoryStreamBridge();
    for (const data of ["a", "b"]) await bridge.publish("r", "values", data);
    const items: WatchItem[] = [];
    const watch = bridge.watch("r", { heartbeatMs: QUIET }, (item) => {
      items.push(item);
      watch.pause();
    });
    watch.resume();
    expect(kinds(items)).toEqual(["a"]);
    watch.resume();
    expect(kinds(items)).toEqual(["a", "b"]);
    watch.close();
  });

  it("keeps what a paused watcher has not read, beyond the window, up to the lag bound", async () => {
    const bridge = new MemoryStreamBridge({ queueMaxSize: 2, subscriberLagMax: 3 });
    const slow: WatchItem[] = [];
    const watch = bridge.watch("r", { heartbeatMs: QUIET }, (item) => slow.push(item));
    for (const data of ["a", "b", "c", "d", "e"]) await bridge.publish("r", "values", data);
    // Five events, a window of two: the paused watcher still gets all of them, in order.
    watch.resume();
    expect(kinds(slow)).toEqual(["a", "b", "c", "d", "e"]);
    watch.close();
    // With nobody behind, the window shrinks back to two on the next publish.
    await bridge.publish("r", "values", "f");
    await bridge.publishEnd("r");
    const late: WatchItem[] = [];
    bridge.watch("r", { heartbeatMs: QUIET }, (item) => late.push(item)).resume();
    expect(kinds(late)).toEqual(["e", "f", "end"]);

    // Six behind a window of two with a bound of three: the watcher fell too far, a gap.
    const far: WatchItem[] = [];
    const farWatch = bridge.watch("s", { heartbeatMs: QUIET }, (item) => far.push(item));
    for (const data of ["1", "2", "3", "4", "5", "6"]) await bridge.publish("s", "values", data);
    farWatch.resume();
    expect(kinds(far)).toEqual(["gap"]);
  });

  it("reports a gap when the window moved past a paused watcher, and a drop on cleanup", async () => {
    const bridge = new MemoryStreamBridge({ queueMaxSize: 2, subscriberLagMax: 0 });
    const items: WatchItem[] = [];
    const watch = bridge.watch("r", { heartbeatMs: QUIET }, (item) => items.push(item));
    for (const data of ["a", "b", "c"]) await bridge.publish("r", "values", data);
    watch.resume();
    expect(kinds(items)).toEqual(["gap"]);

    const dropped: WatchItem[] = [];
    bridge.watch("s", { heartbeatMs: QUIET }, (item) => dropped.push(item)).resume();
    await bridge.cleanup("s");
    expect(kinds(dropped)).toEqual(["dropped"]);
  });

  it("sends heartbeats only while resumed and idle, and stops when the signal aborts", async () => {
    const bridge = new MemoryStreamBridge();
    const controller = new AbortController();
    const items: WatchItem[] = [];
    const watch = bridge.watch("r", { heartbeatMs: 5, signal: controller.signal }, (item) =>
      items.push(item),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(items).toEqual([]); // paused: no heartbeat
    watch.resume();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(kinds(items))).toEqual(new Set(["heartbeat"]));
    controller.abort();
    const seen = items.length;
    await bridge.publish("r", "values", "after");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(items).toHaveLength(seen);
  });
});
