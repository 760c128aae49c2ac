import type { StreamWatch, WatchItem } from "../../ports/stream-bridge.js";
import {
  alreadyFinished,
  endFrame,
  type Frame,
  frameOfItem,
  openingFrame,
  type RunFramesOptions,
  reapedFrame,
  runFrames,
  runIsFinished,
} from "./run-frames.js";

/** A run's frames pushed to a response: `runFrames`, handed over as they come. Starts paused. */
export interface FrameFeed {
  resume(): void;
  /** Hold frames back while the receiver is full. */
  pause(): void;
  /** Stop for good. */
  close(): void;
}

export interface FrameFeedHandlers {
  /** The next frame; null when the frames ended without a last one (the signal aborted). */
  onFrame(frame: Frame | null): void;
  /** Reading the run failed; no frame follows. */
  onError(error: unknown): void;
}

/**
 * The frames of `runFrames`, pushed. On a bridge with `watch` (the in-process one) each event's
 * frame is handed over inside `publish`: no promise per event between the bridge and the socket.
 * Any other bridge is read through `runFrames`.
 */
export function feedFrames(
  o: RunFramesOptions,
  signal: AbortSignal,
  handlers: FrameFeedHandlers,
): FrameFeed {
  return o.fawn.bridge.watch
    ? new WatchedFrames(o, signal, handlers)
    : new PulledFrames(runFrames(o, signal), handlers);
}

class WatchedFrames implements FrameFeed {
  private started = false;
  private paused = true;
  private done = false;
  /** Set while a heartbeat's `runIsFinished` check runs: events wait for its answer. */
  private checking = false;
  private watch: StreamWatch | null = null;

  constructor(
    private readonly o: RunFramesOptions,
    private readonly signal: AbortSignal,
    private readonly handlers: FrameFeedHandlers,
  ) {}

  resume(): void {
    if (this.done) return;
    this.paused = false;
    if (!this.started) {
      this.started = true;
      this.begin().catch((error: unknown) => this.fail(error));
      return;
    }
    if (!this.checking) this.watch?.resume();
  }

  pause(): void {
    this.paused = true;
    this.watch?.pause();
  }

  close(): void {
    this.done = true;
    this.watch?.close();
  }

  private async begin(): Promise<void> {
    const opening = openingFrame(this.o);
    if (opening) this.emit(opening);
    if (await alreadyFinished(this.o)) {
      this.emit(reapedFrame(this.o));
      return;
    }
    const watch = this.o.fawn.bridge.watch;
    if (this.done || this.signal.aborted || !watch) return;
    this.watch = watch.call(
      this.o.fawn.bridge,
      this.o.runId,
      { lastEventId: this.o.lastEventId, heartbeatMs: this.o.heartbeatMs, signal: this.signal },
      (item) => this.onItem(item),
    );
    if (!this.paused) this.watch.resume();
  }

  private onItem(item: WatchItem): void {
    if (item.kind === "dropped" && this.signal.aborted) {
      this.emit(null);
      return;
    }
    const frame = frameOfItem(this.o, item);
    if (frame) this.emit(frame);
    if (item.kind === "heartbeat" && !this.done) this.checkFinished();
  }

  /** After a heartbeat: a run that ended where this bridge cannot see its `end` ends here. */
  private checkFinished(): void {
    this.checking = true;
    this.watch?.pause();
    runIsFinished(this.o.fawn, this.o.runId).then(
      (finished) => {
        this.checking = false;
        if (this.done) return;
        if (finished) this.emit(endFrame());
        else if (!this.paused) this.watch?.resume();
      },
      (error: unknown) => {
        this.checking = false;
        this.fail(error);
      },
    );
  }

  private emit(frame: Frame | null): void {
    if (this.done) return;
    if (frame === null || frame.kind === "final") this.close();
    this.handlers.onFrame(frame);
  }

  private fail(error: unknown): void {
    if (this.done) return;
    this.close();
    this.handlers.onError(error);
  }
}

/** Any bridge: `runFrames` read one frame at a time while resumed. */
class PulledFrames implements FrameFeed {
  private started = false;
  private paused = true;
  private done = false;
  private gate: (() => void) | null = null;

  constructor(
    private readonly frames: AsyncGenerator<Frame>,
    private readonly handlers: FrameFeedHandlers,
  ) {}

  resume(): void {
    this.paused = false;
    this.open();
    if (!this.started) {
      this.started = true;
      void this.read();
    }
  }

  pause(): void {
    this.paused = true;
  }

  close(): void {
    this.done = true;
    this.open();
    void this.frames.return(undefined).catch(() => undefined);
  }

  private open(): void {
    const gate = this.gate;
    this.gate = null;
    gate?.();
  }

  private async read(): Promise<void> {
    try {
      for (;;) {
        while (this.paused && !this.done) {
          await new Promise<void>((resolve) => {
            this.gate = resolve;
          });
        }
        if (this.done) return;
        const next = await this.frames.next();
        if (this.done) return;
        if (next.done) {
          this.handlers.onFrame(null);
          return;
        }
        this.handlers.onFrame(next.value);
        if (next.value.kind === "final") return;
      }
    } catch (error) {
      if (!this.done) this.handlers.onError(error);
    }
  }
}
