/** A run's retained window of stream events in the in-process bridge, and its subscribers' cursors. */
import type { StreamEvent, StreamGap, StreamWatch, WatchItem } from "../../ports/stream-bridge.js";

/** Bookkeeping of a run's producer side: started → transferred to the finalizer → finished. */
export type ProducerLeaseState =
  | { state: "started" }
  | { state: "transferred"; owner: string }
  | { state: "finished"; owner: string | null };

export interface RunStream {
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

function gapFor(stream: RunStream, requestedEventId: string | null): StreamGap {
  return {
    requestedEventId,
    earliestAvailableEventId: stream.events[0]?.id ?? null,
    latestAvailableEventId: stream.events.at(-1)?.id ?? null,
  };
}

/** The offset of the next event the slowest live subscriber will read (Infinity without any). */
export function slowestCursor(stream: RunStream): number {
  let slowest = Number.POSITIVE_INFINITY;
  for (const watcher of stream.watchers) slowest = Math.min(slowest, watcher.position);
  return slowest;
}

export function wake(stream: RunStream): void {
  for (const watcher of stream.watchers) watcher.deliver();
}

/**
 * One subscription's cursor into a run's window. It hands items over while resumed; when it
 * runs out it waits for the next `publish` / end / drop (which call `deliver`), its heartbeat
 * timer re-armed (`refresh`, no new timer) from that moment.
 */
export class Watcher implements StreamWatch {
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
