/**
 * The live side of a run: events fan out to SSE subscribers, who may reconnect with
 * `Last-Event-ID` and get every event they missed exactly once, or an explicit gap.
 */
import type { StoreHealth } from "./store-database.js";
import type { FencedWrite } from "./write-fence.js";

export interface StreamEvent {
  /** Opaque, ordered within a run; usable as a `Last-Event-ID` cursor. */
  id: string;
  event: string;
  data: unknown;
}

export interface StreamGap {
  requestedEventId: string | null;
  earliestAvailableEventId: string | null;
  latestAvailableEventId: string | null;
}

export type StreamItem =
  | { kind: "event"; event: StreamEvent }
  | { kind: "heartbeat" }
  | { kind: "gap"; gap: StreamGap }
  | { kind: "end" };

export interface SubscribeOptions {
  /**
   * Resume strictly after this id; a `gap` when the bridge cannot prove nothing after it was lost
   * (evicted, or its stream lost or re-created). Ids the bridge did not issue (malformed, another
   * form) replay from the earliest retained event.
   */
  lastEventId?: string | null;
  /**
   * Without `lastEventId`: read from the run's first event ever, and get a `gap` if the window has
   * moved past it (default: from the earliest retained event, whatever it is). For a response to
   * the request that created the run, which must see every event or be told it did not.
   */
  fromFirst?: boolean;
  /** A heartbeat item is yielded after this long without events (default 15 000 ms). */
  heartbeatMs?: number;
  /** Ends the iteration when aborted. */
  signal?: AbortSignal;
}

/**
 * What a push subscription hands its consumer: a stream item, that the stream was dropped (cleaned
 * up or the bridge closed, with no `end` for this subscriber), or that reading it failed for good
 * (a bridge reading another process, after its retries; nothing follows).
 */
export type WatchItem = StreamItem | { kind: "dropped" } | { kind: "failed"; error: unknown };

/**
 * A push subscription (`StreamBridge.watch`). It starts paused; while resumed, items are handed to
 * the consumer in order as they are available, until it pauses or the watch closes.
 */
export interface StreamWatch {
  /** Hand over what is available now, then each item as it comes, until paused or closed. */
  resume(): void;
  /** Hold items back (the consumer is full); they stay in the bridge's window. */
  pause(): void;
  /**
   * Stop for good (idempotent). `end`, `gap`, `dropped`, `failed` and the signal's abort also
   * close it; an abort hands nothing over.
   */
  close(): void;
}

/** Anything with a name: the task that now owns a run's producer side (`run-finalization-<id>`). */
export interface ProducerOwner {
  readonly name: string;
}

export interface StreamBridge {
  readonly supportsCrossProcess: boolean;
  /**
   * Appends an event and returns its id. Fenced (`fence`, the run's producer): refused with
   * `OwnershipLostError`, appending nothing, once the stream has ended or its writer is another
   * worker; the first fenced publish makes its worker the stream's writer.
   */
  publish(runId: string, event: string, data: unknown, options?: FencedWrite): Promise<string>;
  /**
   * Marks the stream ended; subscribers drain what remains, then receive `end`. Idempotent.
   * Fenced: the fence's worker becomes the stream's writer with the end marker (a recovering peer
   * ends the stream of the run it took over: the old owner's later publishes are refused).
   */
  publishEnd(runId: string, options?: FencedWrite): Promise<void>;
  subscribe(runId: string, options?: SubscribeOptions): AsyncIterable<StreamItem>;
  /**
   * The push form of `subscribe`: the same items in the same order, handed to `onItem` (heartbeats
   * only while resumed and idle). The in-process bridge hands each one over synchronously, inside
   * `publish`, so a consumer that frames every event (SSE) pays no promise per event; a bridge
   * reading another process hands them over as its reads return (`watchFromSubscribe`).
   */
  watch(runId: string, options: SubscribeOptions, onItem: (item: WatchItem) => void): StreamWatch;
  streamExists(runId: string): Promise<boolean>;
  /** Drops the run's stream after `delayMs` (default 0). */
  cleanup(runId: string, options?: { delayMs?: number }): Promise<void>;
  /** Producer lease: start (row is `running`) → transfer to the finalizer → end → finish. */
  startProducerLease(runId: string): Promise<boolean>;
  transferProducerLease(runId: string, owner: ProducerOwner): void;
  finishProducerLease(runId: string): Promise<void>;
  /** Whether the bridge's server answers (readiness); absent: always up (process memory). */
  checkHealth?(): Promise<StoreHealth>;
  close(): Promise<void>;
}
