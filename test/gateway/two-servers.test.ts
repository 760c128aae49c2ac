/**
 * Two gateway servers sharing PostgreSQL (runs, events, threads, checkpoints) and Redis (stream
 * bridge): a client streams a run from one and re-joins it through the other with
 * `Last-Event-ID`, receiving every remaining event exactly once; the other server also reads the
 * thread's state and cancels the run across processes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisStreamBridge } from "../../src/stores/redis/stream-bridge.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { deleteKeysWithPrefix, requireTestRedis, uniqueKeyPrefix } from "../helpers/redis.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";
import { collect, type Part, say } from "./helpers/sdk-stream.js";

const postgres = await createPostgresTestDatabase("gateway_two_servers");
const redisUrl = await requireTestRedis();
const keyPrefix = uniqueKeyPrefix("gateway-two");
const enabled = postgres !== null && redisUrl !== null;

let a: GatewayHarness;
let b: GatewayHarness;

beforeAll(async () => {
  if (!enabled || !postgres || !redisUrl) return;
  const shared = {
    database: { url: postgres.url },
    config: { runtime: { lease_seconds: 5, grace_seconds: 1 } },
  };
  a = await startGatewayHarness({
    ...shared,
    workerId: "server-a",
    bridge: new RedisStreamBridge({ url: redisUrl, keyPrefix }),
  });
  b = await startGatewayHarness({
    ...shared,
    workerId: "server-b",
    bridge: new RedisStreamBridge({ url: redisUrl, keyPrefix }),
  });
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await postgres?.drop();
  if (redisUrl) await deleteKeysWithPrefix(redisUrl, keyPrefix);
});

describe.skipIf(!enabled)("two servers sharing PostgreSQL and Redis", () => {
  it("re-joins a run on the other server with Last-Event-ID, every remaining event once", async () => {
    const thread = await a.client.threads.create();
    let runId = "";
    const head = await collect(
      a.client.runs.stream(thread.thread_id, "lead_agent", {
        input: say("burst:5 hold:two"),
        streamMode: ["values", "custom", "updates"],
        onRunCreated: (meta) => {
          runId = meta.run_id;
        },
      }),
      (p) => p.event === "custom",
    );
    await a.controls.arrived("two");
    const cursor = head.at(-1)?.id;
    expect(cursor).toEqual(expect.any(String));
    // Server B serves the thread and the run from the shared stores.
    expect((await b.client.runs.get(thread.thread_id, runId)).status).toBe("running");
    const tail = b.client.runs.joinStream(thread.thread_id, runId, { lastEventId: cursor });
    const reading = collect(tail);
    a.controls.release("two");
    const rest = await reading;
    expect(rest.map((p) => p.event)).not.toContain("end");
    const all = await collect(b.client.runs.joinStream(thread.thread_id, runId));
    const key = (p: Part) => `${p.id}|${p.event}`;
    const resumed = [...head, ...rest].map(key);
    expect(resumed).toEqual(all.map(key));
    expect(new Set(resumed).size).toBe(resumed.length);
    const state = await b.client.threads.getState<{ messages: Array<{ content: string }> }>(
      thread.thread_id,
    );
    expect(state.values.messages.map((m) => m.content)).toEqual([
      "burst:5 hold:two",
      "echo: burst:5 hold:two",
    ]);
  });

  it("cancels a run owned by the other server", async () => {
    const thread = await a.client.threads.create();
    const run = await a.client.runs.create(thread.thread_id, "lead_agent", {
      input: say("hold:far"),
    });
    await a.controls.arrived("far");
    await b.client.runs.cancel(thread.thread_id, run.run_id, true, "interrupt");
    expect((await a.client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    await a.client.runs.wait(thread.thread_id, "lead_agent", { input: say("after") });
  });
});
