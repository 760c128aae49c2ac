/**
 * Measures the journal's batch writes and the stream bridge's publishes and deliveries, by
 * wrapping the methods of the instances the runtime uses (the composition root calls these once,
 * before anything writes). The contracts stay untouched; the measurements see every caller.
 */
import type { RunEventStore } from "../../ports/run-event-store.js";
import type { StreamBridge, WatchItem } from "../../ports/stream-bridge.js";

export interface JournalMeter {
  journalBatch(events: number, seconds: number, ok: boolean): void;
}

export interface BridgeMeter {
  bridgePublish(seconds: number): void;
  /** Age of an event when a subscriber on this process received it. */
  bridgeDelivery(lagSeconds: number): void;
}

/** Times every `putBatch` (the journal's flushes) and records its size. */
export function instrumentEventStore(store: RunEventStore, meter: JournalMeter): void {
  const putBatch = store.putBatch.bind(store);
  store.putBatch = async (events, options) => {
    const started = performance.now();
    try {
      const written = await putBatch(events, options);
      meter.journalBatch(events.length, (performance.now() - started) / 1000, true);
      return written;
    } catch (error) {
      meter.journalBatch(events.length, (performance.now() - started) / 1000, false);
      throw error;
    }
  };
}

/**
 * The wall-clock milliseconds in a Redis stream entry id (`<ms>-<seq>.<epoch>`), or null for an
 * id of another shape (the in-process bridge's ids carry no time: it has no lag to speak of).
 */
export function publishedAtMs(eventId: string): number | null {
  const match = /^(\d{13})-\d+\./.exec(eventId);
  return match?.[1] ? Number(match[1]) : null;
}

/** Times every `publish`, and measures the lag of events handed to `watch` subscribers. */
export function instrumentBridge(bridge: StreamBridge, meter: BridgeMeter): void {
  const publish = bridge.publish.bind(bridge);
  bridge.publish = async (runId, event, data, options) => {
    const started = performance.now();
    const id = await publish(runId, event, data, options);
    meter.bridgePublish((performance.now() - started) / 1000);
    return id;
  };
  const watch = bridge.watch.bind(bridge);
  bridge.watch = (runId, options, onItem) =>
    watch(runId, options, (item: WatchItem) => {
      if (item.kind === "event") {
        const at = publishedAtMs(item.event.id);
        if (at !== null) meter.bridgeDelivery(Math.max(0, Date.now() - at) / 1000);
      }
      onItem(item);
    });
}
