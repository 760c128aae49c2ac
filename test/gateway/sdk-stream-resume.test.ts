/**
 * Resumable streams: `joinStream` with `lastEventId` (no duplicate, no missing event), the SDK's
 * own auto-reconnect after the server drops a stream mid-run (via `Location`), `gap` frames when
 * the resume point was evicted, heartbeats, SSE join, and joins of reaped streams.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";
import { collect, type Part, say } from "./helpers/sdk-stream.js";

let h: GatewayHarness;
let small: GatewayHarness;
let client: Client;

beforeAll(async () => {
  [h, small] = await Promise.all([
    startGatewayHarness(),
    startGatewayHarness({ queueMaxSize: 4, heartbeatMs: 50, streamRetentionMs: 1 }),
  ]);
  client = h.client;
});
afterAll(async () => {
  await Promise.all([h?.close(), small?.close()]);
});

/** Every event of a run as a fresh join replays it (the whole run is still retained). */
async function replayAll(c: Client, threadId: string, runId: string): Promise<Part[]> {
  return collect(c.runs.joinStream(threadId, runId));
}

const keyOf = (p: Part) => `${p.id}|${p.event}`;

describe("resuming streams", () => {
  it("joinStream with lastEventId continues exactly after that event", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("hold:resume-1"),
      streamMode: ["values", "updates", "custom", "messages-tuple"],
    });
    await h.controls.arrived("resume-1");
    const head = await collect(
      client.runs.joinStream(thread.thread_id, run.run_id),
      (p) => p.event === "custom",
    );
    const cursor = head.at(-1)?.id;
    expect(cursor).toEqual(expect.any(String));
    const tail = client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: cursor });
    h.controls.release("resume-1");
    const rest = await collect(tail);
    expect(rest.map((p) => p.event)).not.toContain("end");
    const all = await replayAll(client, thread.thread_id, run.run_id);
    const resumed = [...head, ...rest].map(keyOf);
    expect(resumed).toEqual(all.map(keyOf));
    expect(new Set(resumed).size).toBe(resumed.length);
  });

  for (const mode of ["drop", "close"] as const) {
    it(`the SDK reconnects by itself after the server ${mode}s the stream mid-run`, async () => {
      const thread = await client.threads.create();
      const name = `reconnect-${mode}`;
      let runId = "";
      let dropped = false;
      h.streamHooks.beforeEventFrame = ({ threadId, index }) => {
        if (dropped || threadId !== thread.thread_id || index !== 2) return undefined;
        dropped = true;
        return mode;
      };
      try {
        const parts = await collect(
          client.runs.stream(thread.thread_id, "lead_agent", {
            input: say(`hold:${name}`),
            streamMode: ["values", "updates", "custom"],
            onRunCreated: (meta) => {
              runId = meta.run_id;
            },
          }),
          (p) => {
            // Only after the reconnect can the run go on: the stream was cut at the third frame.
            if (p.event === "updates" && dropped) h.controls.release(name);
            return false;
          },
        );
        expect(dropped).toBe(true);
        const all = await replayAll(client, thread.thread_id, runId);
        expect(parts.map(keyOf)).toEqual(all.map(keyOf));
      } finally {
        h.streamHooks.beforeEventFrame = undefined;
      }
    });
  }

  it("answers a gap frame when the resume point was evicted", async () => {
    const thread = await small.client.threads.create();
    const run = await small.client.runs.create(thread.thread_id, "lead_agent", {
      input: say("burst:10 hold:gap"),
      streamMode: ["custom"],
    });
    await small.controls.arrived("gap");
    // The window keeps 4 events; the run has published 11, so event 0's successor is gone.
    const response = await fetch(
      `${small.apiUrl}/threads/${thread.thread_id}/runs/${run.run_id}/stream`,
      {
        headers: { "Last-Event-ID": "0-0" },
      },
    );
    const text = await response.text();
    small.controls.release("gap");
    expect(text).toContain("event: gap\n");
    expect(text).not.toContain("event: end");
    const gap = JSON.parse(/event: gap\ndata: (.*)\n/.exec(text)?.[1] ?? "null") as Record<
      string,
      unknown
    >;
    expect(gap).toMatchObject({
      code: "stream_replay_gap",
      run_id: run.run_id,
      requested_event_id: "0-0",
      recovery: "reload_durable_state",
    });
    expect(gap.earliest_available_event_id).toEqual(expect.any(String));
    await small.client.runs.join(thread.thread_id, run.run_id);
  });

  it("sends heartbeat comments while a run is idle", async () => {
    const thread = await small.client.threads.create();
    const run = await small.client.runs.create(thread.thread_id, "lead_agent", {
      input: say("hold:beat"),
    });
    await small.controls.arrived("beat");
    const response = await fetch(
      `${small.apiUrl}/threads/${thread.thread_id}/runs/${run.run_id}/stream`,
    );
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("location")).toBe(
      `/threads/${thread.thread_id}/runs/${run.run_id}/stream`,
    );
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": heartbeat\n\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text.startsWith("event: metadata\n")).toBe(true);
    expect(text).toContain(": heartbeat\n\n");
    small.controls.release("beat");
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      text += decoder.decode(next.value, { stream: true });
    }
    // The run's end closes the response; no frame of its own.
    expect(text).toContain("event: values\n");
    expect(text).not.toContain("event: end");
  });

  it("joins as SSE when asked with Accept: text/event-stream", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("sse join"),
    });
    const response = await fetch(
      `${h.apiUrl}/threads/${thread.thread_id}/runs/${run.run_id}/join`,
      {
        headers: { Accept: "text/event-stream" },
      },
    );
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await response.text();
    expect(text.startsWith("event: metadata\n")).toBe(true);
    expect(text).toContain("event: values\n");
    expect(text).not.toContain("event: end");
  });

  it("a finished run whose stream was reaped answers an empty stream at once", async () => {
    const thread = await small.client.threads.create();
    const run = await small.client.runs.create(thread.thread_id, "lead_agent", {
      input: say("reaped"),
    });
    await small.client.runs.join(thread.thread_id, run.run_id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const parts = await collect(small.client.runs.joinStream(thread.thread_id, run.run_id));
    expect(parts).toEqual([]);
  });

  it("a resume of a finished run whose stream was reaped answers a gap, not end", async () => {
    const thread = await small.client.threads.create();
    const run = await small.client.runs.create(thread.thread_id, "lead_agent", {
      input: say("burst:3 hold:reaped-resume"),
      streamMode: ["custom"],
    });
    await small.controls.arrived("reaped-resume");
    const head = await collect(
      small.client.runs.joinStream(thread.thread_id, run.run_id),
      (p) => p.event === "custom",
    );
    const cursor = head.at(-1)?.id ?? "";
    small.controls.release("reaped-resume");
    await small.client.runs.join(thread.thread_id, run.run_id);
    // The stream is reaped 1 ms after the run ended; the client comes back after that.
    while (await small.fawn.bridge.streamExists(run.run_id)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const response = await fetch(
      `${small.apiUrl}/threads/${thread.thread_id}/runs/${run.run_id}/stream`,
      { headers: { "Last-Event-ID": cursor } },
    );
    const text = await response.text();
    expect(text).not.toContain("event: end");
    const gap = JSON.parse(/event: gap\ndata: (.*)\n/.exec(text)?.[1] ?? "null") as unknown;
    expect(gap).toEqual({
      code: "stream_replay_gap",
      run_id: run.run_id,
      requested_event_id: cursor,
      earliest_available_event_id: null,
      latest_available_event_id: null,
      recovery: "reload_durable_state",
    });
  });

  it("filters a join by stream_mode", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("filter"),
      streamMode: ["values", "updates", "custom"],
    });
    await client.runs.join(thread.thread_id, run.run_id);
    const parts = await collect(
      client.runs.joinStream(thread.thread_id, run.run_id, { streamMode: ["custom"] }),
    );
    expect([...new Set(parts.map((p) => p.event))]).toEqual(["metadata", "custom"]);
  });
});
