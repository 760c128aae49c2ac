import { describe, expect, it } from "vitest";
import type { StreamItem, SubscribeOptions, WatchItem } from "./stream-bridge.js";
import { watchFromSubscribe } from "./watch-from-subscribe.js";

const event = (n: number): StreamItem => ({
  kind: "event",
  event: { id: `${n}`, event: "values", data: n },
});

/** A subscription whose items are released by the test; its signal cuts a pending read short. */
function controlledSubscription() {
  const items: Array<StreamItem | Error | "done"> = [];
  let waiting: (() => void) | null = null;
  let signal: AbortSignal | undefined;
  let returned = false;
  async function* subscribe(options: SubscribeOptions): AsyncGenerator<StreamItem> {
    signal = options.signal;
    const wakeUp = (): void => {
      const wake = waiting;
      waiting = null;
      wake?.();
    };
    signal?.addEventListener("abort", wakeUp);
    try {
      for (;;) {
        while (items.length === 0) {
          if (signal?.aborted) return;
          await new Promise<void>((resolve) => {
            waiting = resolve;
          });
        }
        const next = items.shift();
        if (next === "done" || next === undefined) return;
        if (next instanceof Error) throw next;
        yield next;
      }
    } finally {
      signal?.removeEventListener("abort", wakeUp);
      returned = true;
    }
  }
  return {
    subscribe,
    push(item: StreamItem | Error | "done") {
      items.push(item);
      const wake = waiting;
      waiting = null;
      wake?.();
    },
    signal: () => signal,
    returned: () => returned,
  };
}

const turns = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("watchFromSubscribe", () => {
  it("does not start reading before resume", async () => {
    const source = controlledSubscription();
    const seen: WatchItem[] = [];
    watchFromSubscribe(source.subscribe, {}, (item) => seen.push(item));
    source.push(event(1));
    await turns();
    expect(seen).toEqual([]);
    expect(source.signal()).toBeUndefined();
  });

  it("keeps an item whose read was under way at pause and hands it over first on resume", async () => {
    const source = controlledSubscription();
    const seen: WatchItem[] = [];
    const watch = watchFromSubscribe(source.subscribe, {}, (item) => seen.push(item));
    watch.resume();
    await turns();
    // The read is pending; the consumer fills up before it returns.
    watch.pause();
    source.push(event(1));
    source.push(event(2));
    await turns();
    expect(seen).toEqual([]);
    watch.resume();
    expect(seen).toEqual([event(1)]);
    await turns();
    expect(seen).toEqual([event(1), event(2)]);
    watch.close();
  });

  it("drops a heartbeat read while paused: the consumer was busy, not idle", async () => {
    const source = controlledSubscription();
    const seen: WatchItem[] = [];
    const watch = watchFromSubscribe(source.subscribe, {}, (item) => seen.push(item));
    watch.resume();
    await turns();
    watch.pause();
    source.push({ kind: "heartbeat" });
    source.push(event(1));
    await turns();
    watch.resume();
    await turns();
    expect(seen).toEqual([event(1)]);
    watch.close();
  });

  it("hands over `failed` when the subscription throws, and `dropped` when it just ends", async () => {
    const failing = controlledSubscription();
    const failed: WatchItem[] = [];
    watchFromSubscribe(failing.subscribe, {}, (item) => failed.push(item)).resume();
    const error = new Error("gave up");
    failing.push(error);
    await turns();
    expect(failed).toEqual([{ kind: "failed", error }]);

    const ending = controlledSubscription();
    const dropped: WatchItem[] = [];
    watchFromSubscribe(ending.subscribe, {}, (item) => dropped.push(item)).resume();
    ending.push(event(1));
    ending.push("done");
    await turns();
    expect(dropped).toEqual([event(1), { kind: "dropped" }]);
  });

  it("close aborts the subscription's signal and returns its iterator", async () => {
    const source = controlledSubscription();
    const seen: WatchItem[] = [];
    const watch = watchFromSubscribe(source.subscribe, {}, (item) => seen.push(item));
    watch.resume();
    source.push(event(1));
    await turns();
    watch.pause();
    watch.close();
    await turns();
    expect(source.signal()?.aborted).toBe(true);
    expect(source.returned()).toBe(true);
    source.push(event(2));
    watch.resume();
    await turns();
    expect(seen).toEqual([event(1)]);
  });

  it("an abort of the caller's signal closes the watch and hands nothing over", async () => {
    const source = controlledSubscription();
    const controller = new AbortController();
    const seen: WatchItem[] = [];
    const watch = watchFromSubscribe(source.subscribe, { signal: controller.signal }, (item) =>
      seen.push(item),
    );
    watch.resume();
    await turns();
    controller.abort();
    source.push(event(1));
    await turns();
    expect(seen).toEqual([]);
    expect(source.signal()?.aborted).toBe(true);
  });
});
