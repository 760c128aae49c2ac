import { type Clock, systemClock } from "../../core/clock.js";
import { ConfigError } from "../../core/errors.js";
import type {
  ProducerOwner,
  StreamBridge,
  StreamItem,
  StreamWatch,
  SubscribeOptions,
  WatchItem,
} from "../../ports/stream-bridge.js";
import { type FencedWrite, ownershipLost } from "../../ports/write-fence.js";
import {
  type ProducerLeaseState,
  type RunStream,
  slowestCursor,
  Watcher,
  wake,
} from "./run-stream-window.js";

export type { ProducerLeaseState } from "./run-stream-window.js";

export interface MemoryStreamBridgeOptions {
  /** Events retained per run; older ones are evicted and a cursor into them gets a gap. */
  queueMaxSize?: number;
  /**
   * How many events beyond the window a live subscriber that reads slower than the run writes
   * (a busy client, a backpressured socket) may hold back from eviction, so it falls behind
   * without losing anything; one further behind gets a gap. Default 8192.
   */
  subscriberLagMax?: number;
  clock?: Clock;
}

const DEFAULT_QUEUE_MAX_SIZE = 256;
const DEFAULT_SUBSCRIBER_LAG_MAX = 8192;
const DEFAULT_HEARTBEAT_MS = 15_000;
const EVENT_ID = /^(\d+)-(\d+)$/;

/**
 * The single-process stream bridge: each run keeps a bounded window of recent events; ids are
 * `{epoch_ms}-{seq}` where `seq` is the absolute offset in the run, so a `Last-Event-ID` cursor
 * locates itself in the window by arithmetic and a cursor that fell out of it is a gap.
 */
export class MemoryStreamBridge implements StreamBridge {
  readonly supportsCrossProcess = false;
  private readonly queueMaxSize: number;
  private readonly subscriberLagMax: number;
  private readonly clock: Clock;
  private readonly streams = new Map<string, RunStream>();
  private readonly pendingCleanups = new Set<{ timer: NodeJS.Timeout; done: () => void }>();

  constructor(options: MemoryStreamBridgeOptions = {}) {
    const size = options.queueMaxSize ?? DEFAULT_QUEUE_MAX_SIZE;
    if (!Number.isInteger(size) || size < 1) {
      throw new ConfigError(`Stream bridge queueMaxSize must be a positive integer, got ${size}.`);
    }
    this.queueMaxSize = size;
    this.subscriberLagMax = Math.max(0, options.subscriberLagMax ?? DEFAULT_SUBSCRIBER_LAG_MAX);
    this.clock = options.clock ?? systemClock;
  }

  async publish(
    runId: string,
    event: string,
    data: unknown,
    options: FencedWrite = {},
  ): Promise<string> {
    const stream = this.streamFor(runId);
    const { fence } = options;
    if (fence) {
      if (stream.ended || (stream.writer !== null && stream.writer !== fence.workerId)) {
        throw ownershipLost(fence, "publish to the stream");
      }
      stream.writer = fence.workerId;
    }
    const seq = stream.startOffset + stream.events.length;
    const id = `${this.clock.now().getTime()}-${seq}`;
    stream.events.push({ id, event, data });
    const overflow = stream.events.length - this.queueMaxSize;
    if (overflow > 0) {
      // Events a live subscriber has not read yet stay, up to the lag bound.
      const forced = overflow - this.subscriberLagMax;
      const readByAll = slowestCursor(stream) - stream.startOffset;
      const evicted = Math.max(forced, Math.min(overflow, readByAll));
      if (evicted > 0) {
        stream.events.splice(0, evicted);
        stream.startOffset += evicted;
      }
    }
    wake(stream);
    return id;
  }

  async publishEnd(runId: string, options: FencedWrite = {}): Promise<void> {
    const stream = this.streamFor(runId);
    if (stream.ended) return;
    if (options.fence) stream.writer = options.fence.workerId;
    stream.ended = true;
    wake(stream);
  }

  /**
   * The async-iterator form of `watch`: one item per pull (the watch is paused while the
   * consumer holds an item), so both forms share one cursor, gap, end and heartbeat logic.
   */
  async *subscribe(runId: string, options: SubscribeOptions = {}): AsyncGenerator<StreamItem> {
    const { signal } = options;
    if (signal?.aborted) return;
    const queue: WatchItem[] = [];
    let waiting: (() => void) | null = null;
    const wakeUp = (): void => {
      const resume = waiting;
      waiting = null;
      resume?.();
    };
    const watch = this.watch(runId, options, (item) => {
      queue.push(item);
      watch.pause();
      wakeUp();
    });
    signal?.addEventListener("abort", wakeUp, { once: true });
    try {
      while (!signal?.aborted) {
        if (queue.length === 0) {
          watch.resume();
          if (queue.length === 0) {
            await new Promise<void>((resolve) => {
              waiting = resolve;
            });
          }
        }
        const item = queue.shift();
        if (item === undefined) continue;
        if (item.kind === "dropped") return;
        // The in-process bridge never fails a read; this keeps the contract's item total.
        if (item.kind === "failed") throw item.error;
        yield item;
        if (item.kind === "end" || item.kind === "gap") return;
      }
    } finally {
      signal?.removeEventListener("abort", wakeUp);
      watch.close();
    }
  }

  /**
   * Push subscription: from the cursor on, each retained or newly published event is handed to
   * `onItem` synchronously (inside `publish` for live ones), then `end`, a `gap` if the window
   * moved past the cursor, or `dropped`. A heartbeat comes after `heartbeatMs` resumed without
   * an item. Starts paused.
   */
  watch(runId: string, options: SubscribeOptions, onItem: (item: WatchItem) => void): StreamWatch {
    const stream = this.streamFor(runId);
    const start =
      options.fromFirst && !options.lastEventId
        ? { offset: 0, lastSeenId: null }
        : locateCursor(stream, options.lastEventId ?? null);
    return new Watcher(
      stream,
      start,
      options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      options.signal,
      onItem,
    );
  }

  async streamExists(runId: string): Promise<boolean> {
    return this.streams.has(runId);
  }

  /** Drops the stream after `delayMs`; the timer is unref'd so it never holds the process open. */
  cleanup(runId: string, options: { delayMs?: number } = {}): Promise<void> {
    const stream = this.streams.get(runId);
    if (!stream) return Promise.resolve();
    const delayMs = options.delayMs ?? 0;
    if (delayMs <= 0) {
      this.drop(runId, stream);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const pending = {
        timer: setTimeout(() => {
          this.pendingCleanups.delete(pending);
          this.drop(runId, stream);
          resolve();
        }, delayMs).unref(),
        done: resolve,
      };
      this.pendingCleanups.add(pending);
    });
  }

  async startProducerLease(runId: string): Promise<boolean> {
    const stream = this.streamFor(runId);
    if (stream.lease && stream.lease.state !== "finished") return false;
    stream.lease = { state: "started" };
    return true;
  }

  transferProducerLease(runId: string, owner: ProducerOwner): void {
    const lease = this.streams.get(runId)?.lease;
    // Without a live lease there is nothing to hand over (the run never started producing).
    if (!lease || lease.state === "finished") return;
    this.setLease(runId, { state: "transferred", owner: owner.name });
  }

  async finishProducerLease(runId: string): Promise<void> {
    const lease = this.streams.get(runId)?.lease;
    if (!lease || lease.state === "finished") return;
    this.setLease(runId, {
      state: "finished",
      owner: lease.state === "transferred" ? lease.owner : null,
    });
  }

  async close(): Promise<void> {
    for (const pending of this.pendingCleanups) {
      clearTimeout(pending.timer);
      pending.done();
    }
    this.pendingCleanups.clear();
    for (const [runId, stream] of this.streams) this.drop(runId, stream);
  }

  /** Inspection for tests and diagnostics: has `publishEnd` been called for this run's stream? */
  hasEnded(runId: string): boolean {
    return this.streams.get(runId)?.ended ?? false;
  }

  /** Inspection for tests and diagnostics: the producer lease bookkeeping of a run. */
  producerLeaseState(runId: string): ProducerLeaseState | undefined {
    return this.streams.get(runId)?.lease;
  }

  private streamFor(runId: string): RunStream {
    let stream = this.streams.get(runId);
    if (!stream) {
      stream = {
        events: [],
        startOffset: 0,
        ended: false,
        writer: null,
        dropped: false,
        lease: undefined,
        watchers: new Set(),
      };
      this.streams.set(runId, stream);
    }
    return stream;
  }

  private setLease(runId: string, lease: ProducerLeaseState): void {
    const stream = this.streams.get(runId);
    if (stream) stream.lease = lease;
  }

  /** Removes `stream` only if it is still the run's current one (a late timer must not drop a successor). */
  private drop(runId: string, stream: RunStream): void {
    if (this.streams.get(runId) === stream) this.streams.delete(runId);
    stream.dropped = true;
    wake(stream);
  }
}

/**
 * Where a subscription starts. No cursor: the earliest retained event. A cursor in the window, or
 * below it: right after it (a gap if that was evicted). Anything else (malformed, or not an id of
 * this stream): replay from the earliest retained event.
 */
function locateCursor(
  stream: RunStream,
  cursor: string | null,
): { offset: number; lastSeenId: string | null } {
  const earliest = { offset: stream.startOffset, lastSeenId: null };
  if (!cursor) return earliest;
  const match = EVENT_ID.exec(cursor);
  const seq = match ? Number(match[2]) : Number.NaN;
  if (!Number.isSafeInteger(seq)) return earliest;
  // Below the window the id cannot be checked; the read loop reports a gap if its successor is gone.
  if (seq < stream.startOffset || stream.events[seq - stream.startOffset]?.id === cursor) {
    return { offset: seq + 1, lastSeenId: cursor };
  }
  return earliest;
}
