import { isTerminalStatus } from "../../ports/run-types.js";
import type { StreamGap, WatchItem } from "../../ports/stream-bridge.js";
import type { RunStreamSource } from "../gateway-services.js";
import { eventFrame, HEARTBEAT_FRAME, streamEventFrame } from "./sse-frame.js";

export type Frame =
  | { kind: "event"; event: string; text: string }
  | { kind: "heartbeat"; text: string }
  /** `end` or `gap`: the last frame of the response. */
  | { kind: "final"; text: string };

export interface RunFramesOptions {
  fawn: RunStreamSource;
  runId: string;
  threadId: string;
  lastEventId: string | null;
  heartbeatMs: number;
  /** Graph modes to forward (a join's `stream_mode`); null forwards everything. */
  modes: readonly string[] | null;
}

/** Events every consumer gets whatever modes it asked for. */
const ALWAYS_FORWARDED = new Set(["metadata", "error", "end"]);

/**
 * A run's SSE frames from the stream bridge: `metadata` first, then the events after
 * `lastEventId`, heartbeats while idle, and `end` last — or `gap` when the resume point was
 * evicted. A fresh (non-resumed) stream gets `metadata` at once, before any store or bridge read:
 * the run is admitted when this starts, so the client learns its run id even while the run waits
 * for a worker; the worker's own `metadata` event is then not sent again.
 */
export async function* runFrames(o: RunFramesOptions, signal: AbortSignal): AsyncGenerator<Frame> {
  const opening = openingFrame(o);
  if (opening) yield opening;
  if (await alreadyFinished(o)) {
    yield reapedFrame(o);
    return;
  }
  for await (const item of o.fawn.bridge.subscribe(o.runId, {
    lastEventId: o.lastEventId,
    heartbeatMs: o.heartbeatMs,
    signal,
  })) {
    const frame = frameOfItem(o, item);
    if (frame) yield frame;
    if (frame?.kind === "final") return;
    // Safety net: a run that ended where this bridge cannot see its `end` (another process,
    // a reaped buffer) must not keep the client waiting forever.
    if (item.kind === "heartbeat" && (await runIsFinished(o.fawn, o.runId))) {
      yield endFrame();
      return;
    }
  }
  // The bridge dropped the stream (cleanup) without an `end` for this subscriber.
  if (!signal.aborted) yield endFrame();
}

/** The `metadata` frame a fresh (non-resumed) stream starts with, before any read. */
export function openingFrame(o: RunFramesOptions): Frame | null {
  if (o.lastEventId !== null) return null;
  return {
    kind: "event",
    event: "metadata",
    text: eventFrame("metadata", { run_id: o.runId, thread_id: o.threadId }),
  };
}

/** A finished run whose live buffer was already reaped: there is nothing left to replay. */
export async function alreadyFinished(o: RunFramesOptions): Promise<boolean> {
  return !(await o.fawn.bridge.streamExists(o.runId)) && (await runIsFinished(o.fawn, o.runId));
}

/**
 * The frame for one bridge item, or null when this response skips it. A heartbeat's frame is
 * followed by a `runIsFinished` check (the caller's); `dropped` (the bridge cleaned the stream
 * up) ends the response like `end`.
 */
export function frameOfItem(o: RunFramesOptions, item: WatchItem): Frame | null {
  switch (item.kind) {
    case "event": {
      const { event } = item;
      if (o.lastEventId === null && event.event === "metadata") return null;
      if (!forwards(o.modes, event.event)) return null;
      return { kind: "event", event: event.event, text: streamEventFrame(event) };
    }
    case "heartbeat":
      return { kind: "heartbeat", text: HEARTBEAT_FRAME };
    case "gap":
      return { kind: "final", text: eventFrame("gap", gapPayload(o.runId, item.gap)) };
    case "end":
    case "dropped":
      return endFrame();
  }
}

/**
 * The last frame for a finished run whose stream is gone: `end` for a fresh stream; a `gap` for a
 * resume, since nothing proves the client saw every event after its `Last-Event-ID`.
 */
export function reapedFrame(o: RunFramesOptions): Frame {
  if (o.lastEventId === null) return endFrame();
  const gap: StreamGap = {
    requestedEventId: o.lastEventId,
    earliestAvailableEventId: null,
    latestAvailableEventId: null,
  };
  return { kind: "final", text: eventFrame("gap", gapPayload(o.runId, gap)) };
}

export function endFrame(): Frame {
  return { kind: "final", text: eventFrame("end", null) };
}

function forwards(modes: readonly string[] | null, event: string): boolean {
  if (modes === null || ALWAYS_FORWARDED.has(event)) return true;
  return modes.includes(event.split("|")[0] ?? event);
}

function gapPayload(runId: string, gap: StreamGap): Record<string, unknown> {
  return {
    code: "stream_replay_gap",
    run_id: runId,
    requested_event_id: gap.requestedEventId,
    earliest_available_event_id: gap.earliestAvailableEventId,
    latest_available_event_id: gap.latestAvailableEventId,
    recovery: "reload_durable_state",
  };
}

/** True once the run is terminal and no local worker is still finishing it. */
export async function runIsFinished(fawn: RunStreamSource, runId: string): Promise<boolean> {
  const local = fawn.manager.getLocal(runId);
  if (local) return !local.taskIsLive() && isTerminalStatus(local.status) && !local.queued;
  const row = await fawn.stores.runs.get(runId);
  return row === null || isTerminalStatus(row.status);
}
