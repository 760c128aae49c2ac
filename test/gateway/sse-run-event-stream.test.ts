import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/core/logger.js";
import { runEventStream } from "../../src/gateway/sse/run-event-stream.js";
import type { RunStreamSource } from "../../src/gateway/sse/stream-writer.js";
import type { StreamItem } from "../../src/ports/stream-bridge.js";
import { watchFromSubscribe } from "../../src/ports/watch-from-subscribe.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";

/** Node's response as the direct path uses it: headers out, every write recorded. */
class FakeResponse extends EventEmitter {
  readonly headersSent = true;
  writableEnded = false;
  destroyed = false;
  readonly writes: string[] = [];
  /** What `write` answers: false means the socket's buffer is full until `drain`. */
  accepting = true;

  write(text: string): boolean {
    this.writes.push(text);
    return this.accepting;
  }
}

/** A run with no row: finished as soon as its stream is gone. */
function sourceOf(bridge: MemoryStreamBridge): RunStreamSource {
  return { bridge, isRunFinished: async () => true };
}

function open(
  bridge: MemoryStreamBridge,
  outgoing?: FakeResponse,
  options: { lastEventId?: string; source?: RunStreamSource; holdFromStart?: boolean } = {},
) {
  return runEventStream({
    source: options.source ?? sourceOf(bridge),
    runId: "r1",
    threadId: "t1",
    lastEventId: options.lastEventId ?? null,
    heartbeatMs: 60_000,
    modes: null,
    logger: createLogger({ level: "silent" }),
    outgoing: outgoing as unknown as ServerResponse | undefined,
    holdFromStart: options.holdFromStart,
  });
}

/** Lets `n` turns of the event loop pass (each ends with the check phase's flush). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const framesIn = (text: string) => text.split("\n\n").length - 1;

describe("run event stream on Node's response", () => {
  it("writes the frames of one turn in one write, straight to the response", async () => {
    const bridge = new MemoryStreamBridge();
    for (let i = 0; i < 30; i++) await bridge.publish("r1", "custom", { i });
    const response = new FakeResponse();
    const reader = open(bridge, response).getReader();
    const finished = reader.read();
    await turns(3);
    // The 30 retained events: one chunk.
    expect(response.writes).toHaveLength(1);
    expect(framesIn(response.writes[0] ?? "")).toBe(30);
    for (let i = 0; i < 5; i++) void bridge.publish("r1", "custom", { i });
    await turns(3);
    expect(response.writes).toHaveLength(2);
    expect(framesIn(response.writes[1] ?? "")).toBe(5);
    await bridge.publishEnd("r1");
    // The body itself carries nothing, and the end of the run adds no frame: it just ends.
    expect(await finished).toEqual({ done: true, value: undefined });
    expect(response.writes).toHaveLength(2);
  });

  it("stops reading the bridge while the socket's buffer is full, then sends the rest at once", async () => {
    const bridge = new MemoryStreamBridge();
    await bridge.startProducerLease("r1");
    const response = new FakeResponse();
    response.accepting = false;
    await bridge.publish("r1", "metadata", { run_id: "r1", attempt: 1 });
    const reader = open(bridge, response).getReader();
    const finished = reader.read();
    await turns(3);
    expect(response.writes).toHaveLength(1);
    for (let turn = 0; turn < 4; turn++) {
      void bridge.publish("r1", "custom", { turn });
      await turns(2);
    }
    // The events wait in the bridge; nothing is written until the socket drains.
    expect(response.writes).toHaveLength(1);
    response.accepting = true;
    response.emit("drain");
    await turns(3);
    expect(response.writes).toHaveLength(2);
    expect(response.writes.map(framesIn)).toEqual([1, 4]);
    await bridge.publishEnd("r1");
    expect((await finished).done).toBe(true);
  });

  it("goes through the body when there is no Node response to write to", async () => {
    const bridge = new MemoryStreamBridge();
    await bridge.publish("r1", "custom", { a: 1 });
    await bridge.publishEnd("r1");
    const reader = open(bridge).getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      text += decoder.decode(next.value);
    }
    expect(text).toBe(
      `event: custom\ndata: {"a":1}\nid: ${text.split("id: ")[1]?.split("\n")[0]}\n\n`,
    );
  });
});

/** The body's whole text, read to its end. */
async function readBody(body: ReadableStream<Uint8Array>): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    text += decoder.decode(next.value);
  }
  return text;
}

const eventNames = (text: string) => [...text.matchAll(/^event: (.*)$/gm)].map((m) => m[1]);

/** A run whose stream carries the worker's metadata twice (a recovered run started again). */
async function publishRun(bridge: MemoryStreamBridge): Promise<string[]> {
  const ids = [await bridge.publish("r1", "metadata", { run_id: "r1", attempt: 1 })];
  ids.push(await bridge.publish("r1", "custom", { a: 1 }));
  ids.push(await bridge.publish("r1", "metadata", { run_id: "r1", attempt: 1 }));
  ids.push(await bridge.publish("r1", "custom", { a: 2 }));
  await bridge.publishEnd("r1");
  return ids;
}

describe("the metadata frame", () => {
  it("opens a fresh stream with the bridge's metadata event, once, with its id", async () => {
    const bridge = new MemoryStreamBridge();
    const ids = await publishRun(bridge);
    const text = await readBody(open(bridge));
    expect(eventNames(text)).toEqual(["metadata", "custom", "custom"]);
    expect(
      text.startsWith(`event: metadata\ndata: {"run_id":"r1","attempt":1}\nid: ${ids[0]}\n`),
    ).toBe(true);
  });

  it("a resume replaying from the run's start gets the bridge's metadata once, first", async () => {
    const bridge = new MemoryStreamBridge();
    const ids = await publishRun(bridge);
    const text = await readBody(open(bridge, undefined, { lastEventId: "not-an-id" }));
    expect(eventNames(text)).toEqual(["metadata", "custom", "custom"]);
    expect(
      text.startsWith(`event: metadata\ndata: {"run_id":"r1","attempt":1}\nid: ${ids[0]}\n`),
    ).toBe(true);
  });

  it("a resume after the metadata gets none", async () => {
    const bridge = new MemoryStreamBridge();
    const ids = await publishRun(bridge);
    const text = await readBody(open(bridge, undefined, { lastEventId: ids[0] ?? "" }));
    expect(eventNames(text)).toEqual(["custom", "custom"]);
  });
});

describe("run event stream on a bridge whose reads are asynchronous", () => {
  it("writes the same frames as the in-process watch", async () => {
    const bridge = new MemoryStreamBridge();
    await publishRun(bridge);
    const pulled: RunStreamSource = {
      bridge: {
        streamExists: (runId) => bridge.streamExists(runId),
        watch: (runId, options, onItem) =>
          watchFromSubscribe((opened) => bridge.subscribe(runId, opened), options, onItem),
      },
      isRunFinished: async () => true,
    };
    const direct = await readBody(open(bridge));
    expect(await readBody(open(bridge, undefined, { source: pulled }))).toBe(direct);
  });

  it("answers an error frame when reading the stream fails", async () => {
    const bridge = new MemoryStreamBridge();
    await bridge.publish("r1", "custom", { a: 1 });
    async function* failing(): AsyncGenerator<StreamItem> {
      yield* [] as StreamItem[];
      throw new Error("the stream is unreadable");
    }
    const broken: RunStreamSource = {
      bridge: {
        streamExists: async () => true,
        watch: (_runId, options, onItem) => watchFromSubscribe(failing, options, onItem),
      },
      isRunFinished: async () => false,
    };
    const text = await readBody(open(bridge, undefined, { source: broken }));
    expect(eventNames(text)).toEqual(["error"]);
    expect(text).toContain('"error":"StreamError"');
  });
});

describe("run event stream of a run the request created", () => {
  it("keeps every event from the first for a response read late, past the bridge's window", async () => {
    // A busy server: the response is read long after the run was created, and its run row is
    // slow to answer; the run publishes far more than the window (2 events) meanwhile.
    const bridge = new MemoryStreamBridge({ queueMaxSize: 2 });
    const slow: RunStreamSource = {
      bridge,
      isRunFinished: () => new Promise((resolve) => setTimeout(() => resolve(true), 50)),
    };
    const response = new FakeResponse();
    const body = open(bridge, response, { source: slow, holdFromStart: true });
    for (let i = 0; i < 20; i++) await bridge.publish("r1", "custom", { i });
    await bridge.publishEnd("r1");
    const reader = body.getReader();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    const text = response.writes.join("");
    expect(framesIn(text)).toBe(20);
    expect(text).toContain('{"i":0}');
  });
});
