import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { type Frame, type RunFramesOptions, runFrames } from "./run-frames.js";
import { eventFrame } from "./sse-frame.js";

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
  logger: Logger;
}

const TICK_END = Symbol("tick end");

/** Resolves in the check phase of the current event-loop turn, after pending I/O and timers. */
function endOfTick(): Promise<typeof TICK_END> {
  return new Promise((resolve) => setImmediate(resolve, TICK_END));
}

/**
 * A streaming response body: frames are pulled from the bridge as the socket drains, never
 * buffered beyond one turn of the event loop. Frames that are ready in the same turn (a burst of
 * tokens, several runs' timers firing together under load) leave as one chunk: one socket write
 * per connection per turn instead of one per frame. The subscription ends when the client
 * disconnects.
 */
export function runEventStream(o: RunEventStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const frames = runFrames(o, abort.signal);
  let finished = false;
  let index = 0;
  /** A `next()` that lost the race with the end of a turn; the next pull starts with it. */
  let carried: Promise<IteratorResult<Frame>> | null = null;
  const stop = async (): Promise<void> => {
    finished = true;
    abort.abort();
    await frames.return(undefined).catch(() => undefined);
  };
  const nextFrame = (): Promise<IteratorResult<Frame>> => {
    const next = carried ?? frames.next();
    carried = null;
    return next;
  };
  const write = (controller: ReadableStreamDefaultController<Uint8Array>, text: string): void => {
    if (text === "") return;
    o.hooks?.onWrite?.({ runId: o.runId, text });
    controller.enqueue(encoder.encode(text));
  };

  /** What to do with one frame: add it to the chunk, or end the response after the chunk. */
  type Step = "more" | "closed" | "dropped" | "boundary";
  /**
   * A test hook's cut that waits for the frames before it to be written first (one pull later),
   * so the client has received exactly the frames before the cut, as if they left one by one.
   */
  let pendingCut: "closed" | "dropped" | null = null;
  const take = (frame: Frame, chunk: string[]): Step => {
    if (frame.kind === "event") {
      const action = o.hooks?.beforeEventFrame?.({
        threadId: o.threadId,
        runId: o.runId,
        index: index++,
        event: frame.event,
      });
      if (action) {
        const cut = action === "close" ? "closed" : "dropped";
        if (chunk.length === 0) return cut;
        pendingCut = cut;
        return "boundary";
      }
    }
    chunk.push(frame.text);
    return frame.kind === "final" ? "closed" : "more";
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk: string[] = [];
      let step: Step | "done" = "more";
      let failed = false;
      try {
        if (pendingCut) {
          // A cut left by the previous pull, applied once the frames before it were written.
          step = pendingCut;
          pendingCut = null;
          // One turn for the server to hand the previous chunk to the socket.
          await endOfTick();
        } else {
          const first = await nextFrame();
          // The client went away while this pull waited: the stream is already cancelled.
          if (finished) return;
          if (first.done) step = "done";
          else step = take(first.value, chunk);
        }
        const tickEnd = endOfTick();
        while (step === "more") {
          const next = frames.next();
          const ready = await Promise.race([next, tickEnd]);
          if (finished) return;
          if (ready === TICK_END) {
            // Settles later; the next pull awaits it (the catch only marks it handled meanwhile).
            next.catch(() => undefined);
            carried = next;
            break;
          }
          if (ready.done) step = "done";
          else step = take(ready.value, chunk);
        }
      } catch (error) {
        if (finished) return;
        o.logger.error({ runId: o.runId, error: describeError(error) }, "run stream failed");
        failed = true;
      }
      write(controller, chunk.join(""));
      if (failed) {
        await stop();
        const failure = { message: "The event stream failed; rejoin it.", name: "StreamError" };
        controller.enqueue(encoder.encode(eventFrame("error", failure)));
        controller.close();
        return;
      }
      if (step === "more" || step === "boundary") return;
      await stop();
      if (step === "dropped") {
        if (o.destroyConnection) o.destroyConnection();
        else controller.error(new Error("stream dropped by a test hook"));
        return;
      }
      controller.close();
    },
    async cancel() {
      const early = !finished;
      await stop();
      if (early) o.onDisconnect?.();
    },
  });
}
