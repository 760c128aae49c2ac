import type { StreamGap, StreamItem } from "../../ports/stream-bridge.js";
import { eventFrame, HEARTBEAT_FRAME, streamEventFrame } from "./sse-frame.js";

export type Frame =
  | { kind: "event"; event: string; text: string }
  | { kind: "heartbeat"; text: string }
  /** `end` or `gap`: the last frame of the response. */
  | { kind: "final"; text: string };

/** Which run a response streams, from where, and which of its events. */
export interface FrameRequest {
  runId: string;
  threadId: string;
  lastEventId: string | null;
  /** Graph modes to forward (a join's `stream_mode`); null forwards everything. */
  modes: readonly string[] | null;
}

/** A bridge item the frames are made of: a stream item, or the stream dropped without `end`. */
export type FramedItem = StreamItem | { kind: "dropped" };

/** Events every consumer gets whatever modes it asked for. */
const ALWAYS_FORWARDED = new Set(["metadata", "error", "end"]);

/**
 * The frames of one SSE response: `metadata` first, then the events after `lastEventId`,
 * heartbeats while idle, and `end` last — or `gap` when the resume point was evicted.
 *
 * This is the one place the `metadata` frame is decided, so a response carries at most one and
 * always first. A fresh (non-resumed) response opens with it at once, before any store or bridge
 * read: the run is admitted when the response starts, so the client learns its run id even while
 * the run waits for a worker, and the worker's own `metadata` event on the bridge is then not
 * framed. A resume gets it only when its replay starts at the run's beginning (a cursor the
 * bridge did not issue): the bridge's event is framed when it comes before any other.
 */
export class RunFrames {
  private metadataFramed = false;
  private eventFramed = false;

  constructor(private readonly r: FrameRequest) {}

  /** The `metadata` frame a fresh (non-resumed) response starts with, before any read. */
  opening(): Frame | null {
    if (this.r.lastEventId !== null) return null;
    this.metadataFramed = true;
    this.eventFramed = true;
    return {
      kind: "event",
      event: "metadata",
      text: eventFrame("metadata", { run_id: this.r.runId, thread_id: this.r.threadId }),
    };
  }

  /**
   * The frame for one bridge item, or null when this response skips it. `dropped` (the bridge
   * cleaned the stream up) ends the response like `end`.
   */
  ofItem(item: FramedItem): Frame | null {
    switch (item.kind) {
      case "event": {
        const { event } = item;
        if (event.event === "metadata") {
          if (this.metadataFramed || this.eventFramed) return null;
          this.metadataFramed = true;
        } else if (!forwards(this.r.modes, event.event)) {
          return null;
        }
        this.eventFramed = true;
        return { kind: "event", event: event.event, text: streamEventFrame(event) };
      }
      case "heartbeat":
        return { kind: "heartbeat", text: HEARTBEAT_FRAME };
      case "gap":
        return gapFrame(this.r.runId, item.gap);
      case "end":
      case "dropped":
        return endFrame();
    }
  }

  /**
   * The last frame for a finished run whose stream is gone: `end` for a fresh response; a `gap`
   * for a resume, since nothing proves the client saw every event after its `Last-Event-ID`.
   */
  reaped(): Frame {
    if (this.r.lastEventId === null) return endFrame();
    return gapFrame(this.r.runId, {
      requestedEventId: this.r.lastEventId,
      earliestAvailableEventId: null,
      latestAvailableEventId: null,
    });
  }
}

export function endFrame(): Frame {
  return { kind: "final", text: eventFrame("end", null) };
}

function forwards(modes: readonly string[] | null, event: string): boolean {
  if (modes === null || ALWAYS_FORWARDED.has(event)) return true;
  return modes.includes(event.split("|")[0] ?? event);
}

function gapFrame(runId: string, gap: StreamGap): Frame {
  const payload = {
    code: "stream_replay_gap",
    run_id: runId,
    requested_event_id: gap.requestedEventId,
    earliest_available_event_id: gap.earliestAvailableEventId,
    latest_available_event_id: gap.latestAvailableEventId,
    recovery: "reload_durable_state",
  };
  return { kind: "final", text: eventFrame("gap", payload) };
}
