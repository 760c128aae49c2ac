import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { StreamBridge, StreamWatch, WatchItem } from "../../ports/stream-bridge.js";
import { endFrame, type Frame, type FrameRequest, RunFrames } from "./run-frames.js";
import type { ChunkSink } from "./stream-sinks.js";
import { atTurnEnd } from "./turn-end.js";

/** What a run's SSE response reads: the run's live stream, and whether the run is over. */
export interface RunStreamSource {
  readonly bridge: Pick<StreamBridge, "watch" | "streamExists">;
  /**
   * True once the run is terminal and nothing is still finishing it: asked before reading a run
   * whose stream is gone, and after each heartbeat (a run that ended where this bridge cannot
   * see its `end` must not keep the client waiting forever).
   */
  isRunFinished(runId: string): Promise<boolean>;
}

/** Test seam: lets a test drop or cut a live stream to exercise client reconnects. */
export interface StreamTestHooks {
  /**
   * Called before each event frame is written. `drop` destroys the connection (a network error
   * for the client); `close` ends the response cleanly but without `end`.
   */
  beforeEventFrame?(info: {
    threadId: string;
    runId: string;
    index: number;
    event: string;
  }): "drop" | "close" | undefined;
  /** Called with each chunk handed to the socket (its frames, concatenated). */
  onWrite?(info: { runId: string; text: string }): void;
}

export interface RunStreamOptions extends FrameRequest {
  source: RunStreamSource;
  heartbeatMs: number;
  hooks?: StreamTestHooks | undefined;
  logger: Logger;
}

/**
 * How the frames ended: the last one was written (or a test hook closed the response), a test
 * hook dropped the connection, reading the run failed, or the client left (`stop`).
 */
export type StreamOutcome = "closed" | "dropped" | "failed" | "stopped";

/**
 * Writes one run's SSE frames to a sink: the one path from the stream bridge to the socket. The
 * bridge's `watch` hands each item over as it comes (inside `publish` on the in-process bridge:
 * no promise per event); its frame joins the others of this event-loop turn, and they leave as
 * one chunk when the turn ends (all connections' flushes from one `setImmediate`, `atTurnEnd`):
 * one write per connection per turn instead of one per frame. While the sink is full the watch
 * is paused, so events wait in the bridge's window, never buffered here beyond one turn.
 */
export class RunStreamWriter {
  private readonly frames: RunFrames;
  private readonly abort = new AbortController();
  private watch: StreamWatch | null = null;
  /** Frame texts of this turn, written together when it ends. */
  private pending: string[] = [];
  private scheduled = false;
  /** The sink is full: the watch stays paused until it drains. */
  private full = false;
  /** Set while a heartbeat's `isRunFinished` check runs: events wait for its answer. */
  private checking = false;
  /** No more frames are taken (the last one, a test cut, or the outcome is decided). */
  private ended = false;
  private index = 0;
  private outcome: StreamOutcome | null = null;
  private settle: (outcome: StreamOutcome) => void = () => undefined;
  private readonly flushAtTurnEnd = (): void => this.flush();

  /** Subscribed at creation (`hold`): read from the run's first event. */
  private held = false;
  /** Where frames go: set by `run` (the response's first read decides which sink). */
  private sink: ChunkSink | null = null;

  constructor(private readonly o: RunStreamOptions) {
    this.frames = new RunFrames(o);
  }

  /**
   * Subscribe now, paused, before the response is read: for a run this request has just created,
   * so the bridge keeps every event from its first for this response, however long the server
   * takes to start writing it. Without a hold the subscription starts at the first read.
   */
  hold(): void {
    if (this.watch || this.ended) return;
    this.held = true;
    this.watch = this.openWatch();
  }

  /** Writes the frames to `sink` until the last one, a test cut, a failure, or `stop`. */
  run(sink: ChunkSink): Promise<StreamOutcome> {
    this.sink = sink;
    const done = new Promise<StreamOutcome>((resolve) => {
      this.settle = resolve;
    });
    this.begin().catch((error: unknown) => this.fail(error));
    return done;
  }

  /** The client left: stop reading the bridge and write nothing more. */
  stop(): void {
    this.finish("stopped");
  }

  private async begin(): Promise<void> {
    // Held since the run was created: the window is pinned, and what it holds is this run's.
    if (this.watch) {
      if (!this.full) this.watch.resume();
      return;
    }
    const { source, runId } = this.o;
    // A finished run whose live buffer was already reaped: there is nothing left to replay.
    if (!(await source.bridge.streamExists(runId)) && (await source.isRunFinished(runId))) {
      this.add(this.frames.reaped());
      return;
    }
    if (this.ended) return;
    this.watch = this.openWatch();
    if (!this.full) this.watch.resume();
  }

  /** The bridge subscription (paused until resumed). */
  private openWatch(): StreamWatch {
    return this.o.source.bridge.watch(
      this.o.runId,
      {
        lastEventId: this.o.lastEventId,
        // A run this request created: from its first event, or a gap saying what was missed.
        ...(this.held ? { fromFirst: true } : {}),
        heartbeatMs: this.o.heartbeatMs,
        signal: this.abort.signal,
      },
      (item) => this.onItem(item),
    );
  }

  private onItem(item: WatchItem): void {
    if (this.ended) return;
    if (item.kind === "failed") {
      this.fail(item.error);
      return;
    }
    const frame = this.frames.ofItem(item);
    if (frame) this.add(frame);
    if (item.kind === "heartbeat" && !this.ended) this.checkFinished();
  }

  /** After a heartbeat: a run that ended where this bridge cannot see its `end` ends here. */
  private checkFinished(): void {
    this.checking = true;
    this.watch?.pause();
    this.o.source.isRunFinished(this.o.runId).then(
      (finished) => {
        this.checking = false;
        if (this.ended) return;
        if (finished) this.add(endFrame());
        else if (!this.full) this.watch?.resume();
      },
      (error: unknown) => {
        this.checking = false;
        this.fail(error);
      },
    );
  }

  /** Queues a frame for this turn's chunk; the last frame is written at once. */
  private add(frame: Frame): void {
    if (this.ended) return;
    if (frame.kind === "event" && this.cutBefore(frame.event)) return;
    if (frame.text !== "") this.pending.push(frame.text);
    if (frame.kind === "final") {
      this.ended = true;
      this.flush();
      this.finish("closed");
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      atTurnEnd(this.flushAtTurnEnd);
    }
  }

  /** Asks the test hook about an event frame; true when it cut the stream there. */
  private cutBefore(event: string): boolean {
    const action = this.o.hooks?.beforeEventFrame?.({
      threadId: this.o.threadId,
      runId: this.o.runId,
      index: this.index++,
      event,
    });
    if (!action) return false;
    this.ended = true;
    this.watch?.close();
    const cut = action === "close" ? "closed" : "dropped";
    // The frames before the cut are written first, and given one turn to reach the socket, so
    // the client has received exactly those, as if they left one by one.
    if (this.pending.length === 0) this.finish(cut);
    else {
      this.flush();
      setImmediate(() => this.finish(cut));
    }
    return true;
  }

  private flush(): void {
    this.scheduled = false;
    if (this.outcome !== null || this.pending.length === 0) return;
    const text = this.pending.join("");
    this.pending = [];
    this.o.hooks?.onWrite?.({ runId: this.o.runId, text });
    if (this.sink === null) return;
    const full = this.sink.write(text);
    if (!full) return;
    // The receiver is full: frames stay in the bridge until it drains.
    this.full = true;
    this.watch?.pause();
    void full.then(() => {
      if (this.outcome !== null) return;
      this.full = false;
      if (!this.checking) this.watch?.resume();
    });
  }

  private fail(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.o.logger.error({ runId: this.o.runId, error: describeError(error) }, "run stream failed");
    this.flush();
    this.finish("failed");
  }

  private finish(outcome: StreamOutcome): void {
    if (this.outcome !== null) return;
    this.outcome = outcome;
    this.ended = true;
    this.abort.abort();
    this.watch?.close();
    this.settle(outcome);
  }
}
