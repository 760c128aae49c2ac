import { type Clock, systemClock } from "../../core/clock.js";
import { ConfigError } from "../../core/errors.js";
import type {
  ProducerOwner,
  StreamBridge,
  StreamEvent,
  StreamGap,
  StreamItem,
  SubscribeOptions,
} from "../../runtime/stream-bridge.js";

export interface MemoryStreamBridgeOptions {
  /** Events retained per run; older ones are evicted and a cursor into them gets a gap. */
  queueMaxSize?: number;
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
  /** Set when cleanup or close removed this stream; its subscribers stop after draining. */
  dropped: boolean;
  lease: ProducerLeaseState | undefined;
  /** Subscribers parked until the next change; publish wakes them, no polling. */
  waiters: Set<() => void>;
}

type WaitOutcome = "changed" | "timeout" | "aborted";

const DEFAULT_QUEUE_MAX_SIZE = 256;
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
  private readonly clock: Clock;
  private readonly streams = new Map<string, RunStream>();
  private readonly pendingCleanups = new Set<{ timer: NodeJS.Timeout; done: () => void }>();

  constructor(options: MemoryStreamBridgeOptions = {}) {
    const size = options.queueMaxSize ?? DEFAULT_QUEUE_MAX_SIZE;
    if (!Number.isInteger(size) || size < 1) {
      throw new ConfigError(`Stream bridge queueMaxSize must be a positive integer, got ${size}.`);
    }
    this.queueMaxSize = size;
    this.clock = options.clock ?? systemClock;
  }

  async publish(runId: string, event: string, data: unknown): Promise<string> {
    const stream = this.streamFor(runId);
    const seq = stream.startOffset + stream.events.length;
    const id = `${this.clock.now().getTime()}-${seq}`;
    stream.events.push({ id, event, data });
    const overflow = stream.events.length - this.queueMaxSize;
    if (overflow > 0) {
      stream.events.splice(0, overflow);
      stream.startOffset += overflow;
    }
    wake(stream);
    return id;
  }

  async publishEnd(runId: string): Promise<void> {
    const stream = this.streamFor(runId);
    if (stream.ended) return;
    stream.ended = true;
    wake(stream);
  }

  async *subscribe(runId: string, options: SubscribeOptions = {}): AsyncGenerator<StreamItem> {
    const { signal } = options;
    const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    if (signal?.aborted) return;
    const stream = this.streamFor(runId);
    const start = locateCursor(stream, options.lastEventId ?? null);
    let next = start.offset;
    let lastSeenId = start.lastSeenId;
    // One timer and one abort listener per subscription, not per wait: a subscriber parks once
    // per published token, and creating a timer and an EventTarget listener each time was a
    // measurable share of a streaming server's CPU.
    const parked = new Parking(stream, heartbeatMs, signal);
    try {
      while (!signal?.aborted) {
        if (next < stream.startOffset) {
          // The window moved past what this subscriber has seen: events were lost to it.
          yield { kind: "gap", gap: gapFor(stream, lastSeenId) };
          return;
        }
        const event = stream.events[next - stream.startOffset];
        if (event) {
          next += 1;
          lastSeenId = event.id;
          yield { kind: "event", event };
          continue;
        }
        if (stream.ended) {
          yield { kind: "end" };
          return;
        }
        if (stream.dropped) return;
        if ((await parked.untilChange()) === "timeout") yield { kind: "heartbeat" };
      }
    } finally {
      parked.dispose();
    }
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
        dropped: false,
        lease: undefined,
        waiters: new Set(),
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

function wake(stream: RunStream): void {
  const waiters = [...stream.waiters];
  stream.waiters.clear();
  for (const resume of waiters) resume();
}

/**
 * Where a subscriber waits until the stream changes, its heartbeat interval passes, or its signal
 * aborts — whichever comes first. The heartbeat timer is re-armed (`refresh`) on each wait.
 */
class Parking {
  private resume: ((outcome: WaitOutcome) => void) | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly onChange = (): void => this.finish("changed");
  private readonly onAbort = (): void => this.finish("aborted");

  constructor(
    private readonly stream: RunStream,
    heartbeatMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(() => this.finish("timeout"), heartbeatMs);
    signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  untilChange(): Promise<WaitOutcome> {
    if (this.signal?.aborted) return Promise.resolve("aborted");
    this.timer.refresh();
    return new Promise<WaitOutcome>((resolve) => {
      this.resume = resolve;
      this.stream.waiters.add(this.onChange);
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this.onAbort);
    this.finish("aborted");
  }

  private finish(outcome: WaitOutcome): void {
    const resume = this.resume;
    if (resume === null) return;
    this.resume = null;
    this.stream.waiters.delete(this.onChange);
    resume(outcome);
  }
}
