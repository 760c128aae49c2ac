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
}

export interface RunEventStreamOptions extends RunFramesOptions {
  /** Called once if the client goes away before the last frame. */
  onDisconnect?: (() => void) | undefined;
  hooks?: StreamTestHooks | undefined;
  /** Tear the connection down (a test `drop`); without it the body errors instead. */
  destroyConnection?: (() => void) | undefined;
  logger: Logger;
}

/**
 * A streaming response body: frames are pulled from the bridge as the socket drains, never
 * buffered. The subscription ends when the client disconnects.
 */
export function runEventStream(o: RunEventStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  const frames = runFrames(o, abort.signal);
  let finished = false;
  let index = 0;
  const stop = async (): Promise<void> => {
    finished = true;
    abort.abort();
    await frames.return(undefined).catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: IteratorResult<Frame>;
      try {
        next = await frames.next();
      } catch (error) {
        if (finished) return;
        o.logger.error({ runId: o.runId, error: describeError(error) }, "run stream failed");
        await stop();
        const failure = { message: "The event stream failed; rejoin it.", name: "StreamError" };
        controller.enqueue(encoder.encode(eventFrame("error", failure)));
        controller.close();
        return;
      }
      // The client went away while this pull waited: the stream is already cancelled.
      if (finished) return;
      if (next.done) {
        finished = true;
        controller.close();
        return;
      }
      const frame = next.value;
      if (frame.kind === "event") {
        const action = o.hooks?.beforeEventFrame?.({
          threadId: o.threadId,
          runId: o.runId,
          index: index++,
          event: frame.event,
        });
        if (action) {
          await stop();
          if (action === "close") controller.close();
          else if (o.destroyConnection) o.destroyConnection();
          else controller.error(new Error("stream dropped by a test hook"));
          return;
        }
      }
      controller.enqueue(encoder.encode(frame.text));
      if (frame.kind === "final") {
        await stop();
        controller.close();
      }
    },
    async cancel() {
      const early = !finished;
      await stop();
      if (early) o.onDisconnect?.();
    },
  });
}
