import type { StreamGap, StreamItem } from "../../ports/stream-bridge.js";
import { eventFrame, HEARTBEAT_FRAME, streamEventFrame } from "./sse-frame.js";

export type Frame =
  | { kind: "event"; event: string; text: string }
  | { kind: "heartbeat"; text: string }
  /** The end of the response: nothing (a plain close), or `gap`. */
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
const ALWAYS_FORWARDED = new Set(["metadata", "error"]);

/**
 * The frames of one SSE response: the events after `lastEventId` (the run's `metadata` first,
 * when the replay starts at the run's beginning), heartbeats while idle, and nothing at the end:
 * the response just closes, as the platform's does, so a client reading it gets exactly the
 * run's events. A resume whose point was evicted ends with `gap`.
 *
 * A response frames at most one `metadata` event, and only before any other: every frame,
 * `metadata` included, carries its bridge id, the same live as on a replay.
 */
export class RunFrames {
  private eventFramed = false;

  constructor(private readonly r: FrameRequest) {}

  /**
   * The frame for one bridge item, or null when this response skips it. `dropped` (the bridge
   * cleaned the stream up) ends the response like `end`.
   */
  ofItem(item: FramedItem): Frame | null {
    switch (item.kind) {
      case "event": {
        const { event } = item;
        if (event.event === "metadata") {
          if (this.eventFramed) return null;
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
   * The last frame for a finished run whose stream is gone: none for a fresh response; a `gap`
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

/** The end of the response: it closes with no frame of its own. */
export function endFrame(): Frame {
  return { kind: "final", text: "" };
}

/** The run stream mode an event belongs to (`messages/partial` is the API's `messages`). */
function modeOf(event: string): string {
  const mode = event.split("|")[0] ?? event;
  return mode.startsWith("messages/") ? "messages-partial" : mode;
}

function forwards(modes: readonly string[] | null, event: string): boolean {
  if (modes === null || ALWAYS_FORWARDED.has(event)) return true;
  return modes.includes(modeOf(event));
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
