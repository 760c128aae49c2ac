import { type Clock, systemClock } from "../../core/clock.js";
import { ConfigError } from "../../core/errors.js";
import type {
  ProducerOwner,
  StreamBridge,
  StreamEvent,
  StreamGap,
  StreamItem,
  StreamWatch,
  SubscribeOptions,
  WatchItem,
} from "../../ports/stream-bridge.js";
import { type FencedWrite, ownershipLost } from "../../ports/write-fence.js";

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

/** Bookkeeping of a run's producer side: started → transferred to the finalizer → finished. */
export type ProducerLeaseState =
  | { state: "started" }
  | { state: "transferred"; owner: string }
  | { state: "finished"; owner: string | null };

interface RunStream {
  /** The retained window; `events[0]` has the absolute offset `startOffset`. */
  events: StreamEvent[];
  startOffset: number;
  ended: boolean;
  /** The worker whose fenced publishes the stream accepts (null until one publishes). */
  writer: string | null;
  /** Set when cleanup or close removed this stream; its subscribers stop after draining. */
  dropped: boolean;
  lease: ProducerLeaseState | undefined;
  /** Subscribers, handed each change as it happens; no polling. */
  watchers: Set<Watcher>;
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
    const start = locateCursor(stream, options.lastEventId ?? null);
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

function gapFor(stream: RunStream, requestedEventId: string | null): StreamGap {
  return {
    requestedEventId,
    earliestAvailableEventId: stream.events[0]?.id ?? null,
    latestAvailableEventId: stream.events.at(-1)?.id ?? null,
  };
}

/** The offset of the next event the slowest live subscriber will read (Infinity without any). */
function slowestCursor(stream: RunStream): number {
  let slowest = Number.POSITIVE_INFINITY;
  for (const watcher of stream.watchers) slowest = Math.min(slowest, watcher.position);
  return slowest;
}

function wake(stream: RunStream): void {
  for (const watcher of stream.watchers) watcher.deliver();
}

/**
 * One subscription's cursor into a run's window. It hands items over while resumed; when it
 * runs out it waits for the next `publish` / end / drop (which call `deliver`), its heartbeat
 * timer re-armed (`refresh`, no new timer) from that moment.
 */
class Watcher implements StreamWatch {
  private next: number;
  private lastSeenId: string | null;
  private paused = true;
  private closed = false;
  /** Set while handing items over: a `publish` or `resume` from inside `onItem` adds no loop. */
  private delivering = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = (): void => this.close();

  constructor(
    private readonly stream: RunStream,
    start: { offset: number; lastSeenId: string | null },
    heartbeatMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly onItem: (item: WatchItem) => void,
  ) {
    this.next = start.offset;
    this.lastSeenId = start.lastSeenId;
    this.timer = setTimeout(() => this.heartbeat(), heartbeatMs);
    stream.watchers.add(this);
    if (signal?.aborted) this.close();
    else signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** The absolute offset of the next event this subscriber reads. */
  get position(): number {
    return this.next;
  }

  resume(): void {
    if (this.closed) return;
    this.paused = false;
    this.deliver();
  }

  pause(): void {
    this.paused = true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stream.watchers.delete(this);
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this.onAbort);
  }

  /** Hands over what is available, until paused or closed; then waits for the next change. */
  deliver(): void {
    if (this.delivering) return;
    this.delivering = true;
    try {
      while (!this.paused && !this.closed) {
        const item = this.take();
        if (item === null) {
          // Idle from now: the heartbeat interval starts over.
          this.timer.refresh();
          return;
        }
        if (item.kind !== "event") this.close();
        this.onItem(item);
      }
    } finally {
      this.delivering = false;
    }
  }

  private take(): WatchItem | null {
    const { stream } = this;
    // The window moved past what this subscriber has seen: events were lost to it.
    if (this.next < stream.startOffset) {
      return { kind: "gap", gap: gapFor(stream, this.lastSeenId) };
    }
    const event = stream.events[this.next - stream.startOffset];
    if (event) {
      this.next += 1;
      this.lastSeenId = event.id;
      return { kind: "event", event };
    }
    if (stream.ended) return { kind: "end" };
    if (stream.dropped) return { kind: "dropped" };
    return null;
  }

  private heartbeat(): void {
    // Paused: the consumer is busy; `resume` re-arms the timer once it runs out of items.
    if (this.closed || this.paused || this.delivering) return;
    this.onItem({ kind: "heartbeat" });
    if (!this.closed && !this.paused) this.timer.refresh();
  }
}
