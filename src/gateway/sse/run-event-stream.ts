import type { ServerResponse } from "node:http";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { type FrameFeed, feedFrames } from "./frame-feed.js";
import type { Frame, RunFramesOptions } from "./run-frames.js";
import { eventFrame } from "./sse-frame.js";
import { atTurnEnd } from "./turn-end.js";

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

export interface RunEventStreamOptions extends RunFramesOptions {
  /** Called once if the client goes away before the last frame. */
  onDisconnect?: (() => void) | undefined;
  hooks?: StreamTestHooks | undefined;
  /** Tear the connection down (a test `drop`); without it the body errors instead. */
  destroyConnection?: (() => void) | undefined;
  /**
   * Node's response under this body when Node's HTTP server serves it. Once the server has
   * written the headers and starts reading the body, frames are written to it directly: no
   * web-stream chunk, byte encoding and read promise per write.
   */
  outgoing?: ServerResponse | undefined;
  logger: Logger;
}

/** Where coalesced frame text goes; a promise means "full: wait before writing more". */
interface ChunkSink {
  write(text: string): Promise<void> | undefined;
}

/** How the frames ended: the response closes, is cut by a test hook, or the client left. */
type Outcome = "closed" | "dropped" | "failed" | "stopped";

/**
 * A streaming response body: frames are pulled from the bridge as the receiver drains, never
 * buffered beyond one turn of the event loop. Frames that are ready in the same turn (a burst of
 * tokens, several runs' timers firing together under load) leave as one chunk at the end of the
 * turn: one write per connection per turn instead of one per frame. The subscription ends when
 * the client disconnects.
 */
export function runEventStream(o: RunEventStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  let finished = false;
  let index = 0;
  let started = false;
  let feed: FrameFeed | null = null;
  /** Set by the first pull unless frames go straight to Node's response. */
  let controllerSink: ControllerSink | null = null;
  /** Ends the running pump (the client left). */
  let settlePump: ((outcome: Outcome) => void) | null = null;

  const stop = async (): Promise<void> => {
    finished = true;
    abort.abort();
    feed?.close();
    controllerSink?.release();
    settlePump?.("stopped");
  };

  /**
   * Writes the run's frames via `sink` until the last one, the client leaving, or a test cut.
   * Frames are pushed by the feed (inside `publish` on the in-process bridge); the ones of one
   * turn are joined and written at its end.
   */
  const pump = (sink: ChunkSink): Promise<Outcome> =>
    new Promise<Outcome>((resolve) => {
      let pending: string[] = [];
      let scheduled = false;
      let settled = false;
      const settle = (outcome: Outcome): void => {
        if (settled) return;
        settled = true;
        settlePump = null;
        resolve(outcome);
      };
      settlePump = settle;
      const flush = (): void => {
        scheduled = false;
        if (finished || pending.length === 0) return;
        const text = pending.join("");
        pending = [];
        o.hooks?.onWrite?.({ runId: o.runId, text });
        const full = sink.write(text);
        if (!full) return;
        // The receiver is full: frames stay in the bridge until it drains.
        frames.pause();
        void full.then(() => {
          if (!finished && !settled) frames.resume();
        });
      };
      const onFrame = (frame: Frame | null): void => {
        if (finished || settled) return;
        if (frame === null) {
          flush();
          settle("closed");
          return;
        }
        if (frame.kind === "event") {
          const action = o.hooks?.beforeEventFrame?.({
            threadId: o.threadId,
            runId: o.runId,
            index: index++,
            event: frame.event,
          });
          if (action) {
            frames.close();
            const cut = action === "close" ? "closed" : "dropped";
            // The frames before the cut are written first, and given one turn to reach the
            // socket, so the client has received exactly those, as if they left one by one.
            if (pending.length === 0) settle(cut);
            else {
              flush();
              setImmediate(() => settle(cut));
            }
            return;
          }
        }
        pending.push(frame.text);
        if (frame.kind === "final") {
          flush();
          settle("closed");
          return;
        }
        if (!scheduled) {
          scheduled = true;
          atTurnEnd(flush);
        }
      };
      const frames = feedFrames(o, abort.signal, {
        onFrame,
        onError: (error) => {
          if (finished || settled) return;
          o.logger.error({ runId: o.runId, error: describeError(error) }, "run stream failed");
          flush();
          settle("failed");
        },
      });
      feed = frames;
      frames.resume();
    });

  const run = async (
    controller: ReadableStreamDefaultController<Uint8Array>,
    sink: ChunkSink,
  ): Promise<void> => {
    const outcome = await pump(sink);
    if (outcome === "stopped") return;
    await stop();
    if (outcome === "failed") {
      const failure = { message: "The event stream failed; rejoin it.", name: "StreamError" };
      sink.write(eventFrame("error", failure));
    }
    if (outcome === "dropped") {
      if (o.destroyConnection) o.destroyConnection();
      else controller.error(new Error("stream dropped by a test hook"));
      return;
    }
    controller.close();
  };

  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (started) {
          controllerSink?.release();
          return;
        }
        started = true;
        if (finished) return;
        const outgoing = o.outgoing;
        // The server reads the body only after writing the headers (Node's adapter does): from
        // then on the response takes writes directly. Anything else goes through this body.
        let sink: ChunkSink;
        if (outgoing?.headersSent === true) sink = new ResponseSink(outgoing);
        else {
          controllerSink = new ControllerSink(controller, (text) => encoder.encode(text));
          sink = controllerSink;
        }
        void run(controller, sink).catch((error: unknown) => {
          o.logger.error({ runId: o.runId, error: describeError(error) }, "run stream failed");
        });
      },
      async cancel() {
        const early = !finished;
        await stop();
        if (early) o.onDisconnect?.();
      },
    },
    // Pulled only when read: the first pull comes after the server wrote the headers.
    { highWaterMark: 0 },
  );
}

/**
 * Writes to Node's response; full while the socket's buffer is, until `drain` (or `close`).
 * Writes while full return the same wait.
 */
class ResponseSink implements ChunkSink {
  private full: Promise<void> | undefined;

  constructor(private readonly outgoing: ServerResponse) {}

  write(text: string): Promise<void> | undefined {
    const { outgoing } = this;
    if (outgoing.writableEnded || outgoing.destroyed) return undefined;
    if (outgoing.write(text) && !this.full) return undefined;
    this.full ??= new Promise<void>((resolve) => {
      const done = (): void => {
        outgoing.off("drain", done);
        outgoing.off("close", done);
        this.full = undefined;
        resolve();
      };
      outgoing.on("drain", done);
      outgoing.on("close", done);
    });
    return this.full;
  }
}

/** Enqueues into the body; full until the reader asks for more (the next pull). */
class ControllerSink implements ChunkSink {
  private full: Promise<void> | undefined;
  private waiting: (() => void) | null = null;

  constructor(
    private readonly controller: ReadableStreamDefaultController<Uint8Array>,
    private readonly encode: (text: string) => Uint8Array,
  ) {}

  write(text: string): Promise<void> | undefined {
    this.controller.enqueue(this.encode(text));
    if ((this.controller.desiredSize ?? 0) > 0 && !this.full) return undefined;
    this.full ??= new Promise<void>((resolve) => {
      this.waiting = resolve;
    });
    return this.full;
  }

  /** Lets a writer waiting for the reader go (a pull, or the end of the stream). */
  release(): void {
    const waiting = this.waiting;
    this.waiting = null;
    this.full = undefined;
    waiting?.();
  }
}
