import type { ServerResponse } from "node:http";
import { describeError } from "../../core/errors.js";
import type { StreamSubscriberGauge } from "../../ports/run-metrics.js";
import { eventFrame } from "./sse-frame.js";
import { type ChunkSink, ControllerSink, ResponseSink } from "./stream-sinks.js";
import { type RunStreamOptions, RunStreamWriter } from "./stream-writer.js";

export type { RunStreamSource, StreamTestHooks } from "./stream-writer.js";

export interface RunEventStreamOptions extends RunStreamOptions {
  /** Called once if the client goes away before the last frame. */
  onDisconnect?: (() => void) | undefined;
  /** Tear the connection down (a test `drop`); without it the body errors instead. */
  destroyConnection?: (() => void) | undefined;
  /**
   * Node's response under this body when Node's HTTP server serves it. Once the server has
   * written the headers and starts reading the body, frames are written to it directly.
   */
  outgoing?: ServerResponse | undefined;
  /** Counts this stream while it is open (metrics). */
  subscribers?: StreamSubscriberGauge | undefined;
  /**
   * Subscribe before the body is read (a run the request just created): every event from its
   * first reaches this response, however late the server starts writing it.
   */
  holdFromStart?: boolean | undefined;
}

/**
 * A streaming response body for one run's SSE frames (`RunStreamWriter`). On its first pull the
 * writer starts, writing to Node's response once the server has sent the headers, else into this
 * body. It ends after the last frame; the subscription ends when the client disconnects.
 */
export function runEventStream(o: RunEventStreamOptions): ReadableStream<Uint8Array> {
  let finished = false;
  let started = false;
  const writer = new RunStreamWriter(o);
  if (o.holdFromStart) writer.hold();
  /** Set by the first pull unless frames go straight to Node's response. */
  let controllerSink: ControllerSink | null = null;

  const stop = (): void => {
    finished = true;
    writer.stop();
    controllerSink?.release();
  };

  const run = async (
    controller: ReadableStreamDefaultController<Uint8Array>,
    sink: ChunkSink,
  ): Promise<void> => {
    o.subscribers?.opened();
    let outcome: Awaited<ReturnType<RunStreamWriter["run"]>>;
    try {
      outcome = await writer.run(sink);
    } finally {
      o.subscribers?.closed();
    }
    if (outcome === "stopped") return;
    stop();
    if (outcome === "failed") {
      const failure = { error: "StreamError", message: "The event stream failed; rejoin it." };
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
          controllerSink = new ControllerSink(controller);
          sink = controllerSink;
        }
        void run(controller, sink).catch((error: unknown) => {
          o.logger.error({ runId: o.runId, error: describeError(error) }, "run stream failed");
        });
      },
      cancel() {
        const early = !finished;
        stop();
        if (early) o.onDisconnect?.();
      },
    },
    // Pulled only when read: the first pull comes after the server wrote the headers.
    { highWaterMark: 0 },
  );
}
