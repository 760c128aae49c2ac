import { MessageChannel } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { isOwnershipLostError, OwnershipLostError } from "../../errors.js";
import { RpcClient } from "./rpc-client.js";
import type { RpcCall, RpcStream } from "./rpc-messages.js";
import { serveRpc } from "./rpc-server.js";

type Calls = {
  echo: RpcCall<{ text: string }, string>;
  wait: RpcCall<{ key: string }, string>;
  refuse: RpcCall<null, never>;
};
type Streams = {
  count: RpcStream<{ to: number }, number>;
};

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A served pair over a real MessageChannel; `wait` answers when the test releases its key. */
function connect() {
  const { port1, port2 } = new MessageChannel();
  const started: string[] = [];
  const waiting = new Map<string, (value: string) => void>();
  const stream = { pulled: 0, finished: false };
  const server = serveRpc<Calls, Streams>(port1, {
    calls: {
      echo: async ({ text }) => {
        started.push(text);
        return text;
      },
      wait: ({ key }) => {
        started.push(key);
        return new Promise((resolve) => waiting.set(key, resolve));
      },
      refuse: async () => {
        throw new OwnershipLostError("Refused: worker w no longer owns run r.");
      },
    },
    streams: {
      count: ({ to }) =>
        (async function* () {
          try {
            for (let n = 1; n <= to; n++) {
              stream.pulled = n;
              yield n;
            }
          } finally {
            stream.finished = true;
          }
        })(),
    },
  });
  const client = new RpcClient<Calls, Streams>(port2, { label: "the test server" });
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return { client, server, started, waiting, stream };
}

describe("port RPC", () => {
  it("starts calls in the order sent and answers each by its id", async () => {
    const { client, started, waiting } = connect();
    const slow = client.call("wait", { key: "slow" });
    const fast = client.call("echo", { text: "fast" });
    expect(await fast).toBe("fast");
    expect(started).toEqual(["slow", "fast"]);
    waiting.get("slow")?.("slow done");
    expect(await slow).toBe("slow done");
  });

  it("revives a served error by its code", async () => {
    const { client } = connect();
    const error = await client.call("refuse", null).catch((e: unknown) => e);
    expect(isOwnershipLostError(error)).toBe(true);
  });

  it("streams in pages, to the end", async () => {
    const { client, stream } = connect();
    const seen: number[] = [];
    for await (const n of client.stream("count", { to: 40 })) seen.push(n);
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(stream.finished).toBe(true);
  });

  it("ends the served iterator when the consumer stops early, without pulling it all", async () => {
    const { client, stream } = connect();
    for await (const n of client.stream("count", { to: 1000 })) {
      if (n === 3) break;
    }
    // The next call is answered after the `return` was handled.
    expect(await client.call("echo", { text: "after" })).toBe("after");
    await expect.poll(() => stream.finished).toBe(true);
    expect(stream.pulled).toBeLessThan(1000);
  });

  it("rejects arguments structured clone cannot copy, and stays usable", async () => {
    const { client } = connect();
    const bad = { text: "x", fn: () => 1 };
    await expect(client.call("echo", bad)).rejects.toThrow(/could not be cloned/);
    expect(await client.call("echo", { text: "ok" })).toBe("ok");
  });

  it("fails pending calls when this side closes, and rejects calls after", async () => {
    const { client } = connect();
    const pending = client.call("wait", { key: "never" });
    client.close();
    await expect(pending).rejects.toThrow(
      /closed \(it was closed on this side\) before the answer/,
    );
    await expect(client.call("echo", { text: "late" })).rejects.toThrow(/call was not sent/);
  });

  it("fails pending calls when the serving side closes", async () => {
    const { client, server, started } = connect();
    const pending = client.call("wait", { key: "never" });
    await expect.poll(() => started).toEqual(["never"]);
    server.close();
    await expect(pending).rejects.toThrow(/the other side closed it/);
    await expect(client.call("echo", { text: "late" })).rejects.toThrow(/was not sent/);
  });
});
