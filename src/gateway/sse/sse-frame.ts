/**
 * The SSE wire format the LangGraph SDK parses: `event:` then one `data:` line of JSON, then `id:`
 * when the event has one, then a blank line. Comments (`: …`) are heartbeats.
 */

import type { StreamEvent } from "../../ports/stream-bridge.js";

export const HEARTBEAT_FRAME = ": heartbeat\n\n";

/** Line breaks would end a field early; an SSE field value must be one line. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]/g, " ");
}

/**
 * Frame texts of bridge events, by event object. The in-memory bridge hands the same event object
 * to every subscriber of a run, so its data is serialized once however many clients stream it.
 */
const sharedFrames = new WeakMap<StreamEvent, string>();

/** `eventFrame` of a bridge event, serialized once per event object. */
export function streamEventFrame(event: StreamEvent): string {
  let text = sharedFrames.get(event);
  if (text === undefined) {
    text = eventFrame(event.event, event.data, event.id);
    sharedFrames.set(event, text);
  }
  return text;
}

export function eventFrame(event: string, data: unknown, id?: string | null): string {
  // JSON.stringify escapes line breaks inside strings, so the data stays on one line.
  const json = JSON.stringify(data ?? null) ?? "null";
  const idLine = id ? `id: ${oneLine(id)}\n` : "";
  return `event: ${oneLine(event)}\ndata: ${json}\n${idLine}\n`;
}

/** Headers of every SSE response; the locations let the SDK learn ids and reconnect. */
export function sseHeaders(threadId: string, runId: string): Record<string, string> {
  return {
    "Content-Type": "text/event-stream; charset=utf-8",
    // no-transform: a proxy (Next's rewrites, nginx gzip) must not compress and buffer a stream.
    "Cache-Control": "no-cache, no-transform",
    "X-Accel-Buffering": "no",
    ...runLocationHeaders(threadId, runId),
  };
}

/**
 * Paths relative to the API prefix, as LangGraph sends them: the SDK prefixes its `apiUrl`
 * (`…/api` or `…/api/langgraph`) to `Location` when it reconnects.
 */
export function runLocationHeaders(threadId: string, runId: string): Record<string, string> {
  const run = `/threads/${encodeURIComponent(threadId)}/runs/${encodeURIComponent(runId)}`;
  return { "Content-Location": run, Location: `${run}/stream` };
}
