/**
 * What one streamed run costs the server, in counts that do not move with the machine's load:
 * socket writes per connection, serializations per event, and when the first frame goes out.
 * Real gateway over HTTP, the real SDK client, memory stores.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayHarness, startGatewayHarness } from "../gateway/helpers/gateway-harness.js";

let h: GatewayHarness;
let client: Client;

beforeAll(async () => {
  h = await startGatewayHarness();
  client = h.client;
});
afterAll(async () => {
  await h?.close();
});

const say = (text: string) => ({ messages: [{ role: "user", content: text }] });

/** Every chunk the server hands SSE connections while `fn` runs, by run id. */
async function writesDuring(fn: () => Promise<void>): Promise<Map<string, string[]>> {
  const writes = new Map<string, string[]>();
  h.streamHooks.onWrite = ({ runId, text }) => {
    writes.set(runId, [...(writes.get(runId) ?? []), text]);
  };
  try {
    await fn();
  } finally {
    h.streamHooks.onWrite = undefined;
  }
  return writes;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe("SSE write coalescing", () => {
  it("frames ready in the same turn of the event loop leave in one write", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("burst:60 hold:coalesce"),
      streamMode: ["custom"],
    });
    await h.controls.arrived("coalesce");
    // The 60 custom events are all in the bridge: a new subscriber replays them in one go.
    const writes = await writesDuring(async () => {
      const reading = (async () => {
        const events: string[] = [];
        for await (const part of client.runs.joinStream(thread.thread_id, run.run_id)) {
          events.push(part.event);
          if (events.filter((event) => event === "custom").length === 60) break;
        }
        return events;
      })();
      const events = await reading;
      expect(events[0]).toBe("metadata");
    });
    h.controls.release("coalesce");
    await client.runs.join(thread.thread_id, run.run_id);
    const withCustom = (writes.get(run.run_id) ?? []).filter((text) =>
      text.includes("event: custom\n"),
    );
    expect(withCustom).toHaveLength(1);
    expect(count(withCustom[0] ?? "", "event: custom\n")).toBe(60);
  });

  it("a whole short run reaches the client in a handful of writes, not one per frame", async () => {
    const thread = await client.threads.create();
    let runId = "";
    let frames = 0;
    const all = await writesDuring(async () => {
      for await (const _part of client.runs.stream(thread.thread_id, "lead_agent", {
        input: say("burst:40"),
        streamMode: ["custom", "values", "updates"],
        onRunCreated: (meta) => {
          runId = meta.run_id;
        },
      })) {
        frames += 1;
      }
    });
    const writes = all.get(runId) ?? [];
    expect(frames).toBeGreaterThan(40);
    expect(writes.length).toBeLessThan(frames / 4);
    expect(writes.join("")).toContain("event: values\n");
  });
});

describe("time to first event", () => {
  it("a queued run's client learns its run id at admission; metadata comes when it starts", async () => {
    const thread = await client.threads.create();
    const first = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("hold:first-event"),
    });
    await h.controls.arrived("first-event");
    let admitted: (runId: string) => void = () => undefined;
    const runIdKnown = new Promise<string>((resolve) => {
      admitted = resolve;
    });
    const stream = client.runs.stream(thread.thread_id, "lead_agent", {
      input: say("queued"),
      multitaskStrategy: "enqueue",
      streamMode: ["values"],
      onRunCreated: (meta) => admitted(meta.run_id),
    });
    const iterator = stream[Symbol.asyncIterator]();
    const head = iterator.next();
    // The response's headers name the run while it waits behind the first one.
    const runId = await runIdKnown;
    expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("running");
    expect((await client.runs.get(thread.thread_id, runId)).status).toBe("pending");
    h.controls.release("first-event");
    expect((await head).value).toMatchObject({ event: "metadata", data: { run_id: runId } });
    const rest: string[] = [];
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      rest.push((next.value as { event: string }).event);
    }
    expect(rest).not.toContain("metadata");
    expect(rest).toContain("values");
    expect(rest).not.toContain("end");
  });
});
