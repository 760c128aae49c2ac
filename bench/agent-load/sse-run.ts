/**
 * One agent-load run as a chat UI watches it: `POST /threads/{new id}/runs/stream` (thread
 * created on the fly, stream modes `values` + `messages-tuple`) read to its end with a plain
 * fetch and a minimal SSE parser — lighter than the SDK, so 1,000 streams measure the server
 * more than the client. Every token frame's ` t<emit time>` stamp gives one relay latency.
 */
import { randomUUID } from "node:crypto";
import { BENCH_ASSISTANT } from "../runtime/bench-graph.js";

export interface RunWatch {
  /** Token relay latencies (mock emit → SSE frame parsed here), ms. */
  relayMs: number[];
  tokens: number;
  /** Why the run does not count ("" when it streamed every token and ended cleanly). */
  error: string;
}

const STAMP = / t(\d{10,}\.\d+)/g;

/** Relay latency of each stamped token in `text`, measured now. */
export function stampLatencies(text: string, into: number[]): number {
  const now = performance.timeOrigin + performance.now();
  let found = 0;
  for (const match of text.matchAll(STAMP)) {
    into.push(now - Number(match[1]));
    found += 1;
  }
  return found;
}

export async function watchOneRun(
  apiUrl: string,
  expectedTokens: number,
  assistantId: string = BENCH_ASSISTANT,
): Promise<RunWatch> {
  const watch: RunWatch = { relayMs: [], tokens: 0, error: "" };
  try {
    const response = await fetch(`${apiUrl}/threads/${randomUUID()}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        assistant_id: assistantId,
        input: { messages: [{ role: "user", content: "Write the report." }] },
        stream_mode: ["values", "messages-tuple"],
        if_not_exists: "create",
      }),
    });
    if (!response.ok || !response.body) {
      watch.error = `HTTP ${response.status}`;
      return watch;
    }
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const bytes of response.body) {
      buffer += decoder.decode(bytes, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        readFrame(buffer.slice(0, end), watch);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
      }
    }
    if (!watch.error && watch.tokens < expectedTokens) {
      watch.error = `${watch.tokens} of ${expectedTokens} tokens`;
    }
  } catch (error) {
    watch.error = error instanceof Error ? error.message : String(error);
  }
  return watch;
}

function readFrame(frame: string, watch: RunWatch): void {
  const eventLine = frame.startsWith("event: ") ? frame.slice(7, frame.indexOf("\n")) : "";
  if (eventLine === "error" || eventLine === "gap") {
    watch.error = `${eventLine} event: ${frame.slice(0, 300)}`;
    return;
  }
  // Token chunks only: `values` frames carry the whole history, every stamp again.
  if (eventLine !== "messages") return;
  const latencies: number[] = [];
  const found = stampLatencies(frame, latencies);
  // A frame with many stamps is a whole message, not a token.
  if (found !== 1) return;
  watch.relayMs.push(...latencies);
  watch.tokens += 1;
}
