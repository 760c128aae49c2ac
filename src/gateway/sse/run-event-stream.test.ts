import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import type { Fawn } from "../../app/create-fawn.js";
import { createLogger } from "../../core/logger.js";
import { MemoryStreamBridge } from "../../stores/memory/stream-bridge.js";
import { runEventStream } from "./run-event-stream.js";

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

function fakeFawn(bridge: MemoryStreamBridge): Fawn {
  const fawn = {
    bridge,
    manager: { getLocal: () => undefined },
    stores: { runs: { get: async () => null } },
  };
  return fawn as unknown as Fawn;
}

function open(bridge: MemoryStreamBridge, outgoing?: FakeResponse) {
  return runEventStream({
    fawn: fakeFawn(bridge),
    runId: "r1",
    threadId: "t1",
    lastEventId: null,
    heartbeatMs: 60_000,
    modes: null,
    logger: createLogger({ level: "silent" }),
    outgoing: outgoing as unknown as ServerResponse | undefined,
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
    // metadata and the 30 retained events: one chunk.
    expect(response.writes).toHaveLength(1);
    expect(framesIn(response.writes[0] ?? "")).toBe(31);
    for (let i = 0; i < 5; i++) void bridge.publish("r1", "custom", { i });
    await turns(3);
    expect(response.writes).toHaveLength(2);
    expect(framesIn(response.writes[1] ?? "")).toBe(5);
    await bridge.publishEnd("r1");
    // The body itself carries nothing: it ends when the last frame was written.
    expect(await finished).toEqual({ done: true, value: undefined });
    expect(response.writes).toHaveLength(3);
    expect(response.writes[2]).toBe("event: end\ndata: null\n\n");
  });

  it("stops reading the bridge while the socket's buffer is full, then sends the rest at once", async () => {
    const bridge = new MemoryStreamBridge();
    await bridge.startProducerLease("r1");
    const response = new FakeResponse();
    response.accepting = false;
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
      'event: metadata\ndata: {"run_id":"r1","thread_id":"t1"}\n\n' +
        'event: custom\ndata: {"a":1}\nid: ' +
        text.split("id: ")[1]?.split("\n")[0] +
        "\n\nevent: end\ndata: null\n\n",
    );
  });
});
