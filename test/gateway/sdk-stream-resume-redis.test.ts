/**
 * Resuming a run's SSE stream through the unmodified SDK on a gateway whose stream bridge is a
 * Redis that restarts empty mid-run (this file's own `redis-server` on a spare port): the
 * `Last-Event-ID` resume gets a `gap` frame telling the client to reload durable state — never
 * the events published after the restart as if nothing had been lost — and a fresh join then
 * delivers what the new stream holds, with no event twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisStreamBridge } from "../../src/stores/redis/stream-bridge.js";
import { type PrivateRedis, startPrivateRedis } from "../helpers/redis.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";
import { collect, say } from "./helpers/sdk-stream.js";

const redis = await startPrivateRedis();
let server: PrivateRedis;
let h: GatewayHarness;

beforeAll(async () => {
  if (redis === null) return;
  server = redis;
  h = await startGatewayHarness({ bridge: new RedisStreamBridge({ url: server.url }) });
});
afterAll(async () => {
  await h?.close();
  await redis?.stop();
});

describe.skipIf(redis === null)("resuming a stream after Redis restarted empty", () => {
  it("answers a gap frame to a Last-Event-ID resume, then a fresh join has no event twice", async () => {
    const { client, controls } = h;
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: say("burst:30 hold:lost"),
      streamMode: ["values", "updates", "custom"],
    });
    await controls.arrived("lost");
    // The client reads two events, then goes away.
    let withIds = 0;
    const head = await collect(client.runs.joinStream(thread.thread_id, run.run_id), (p) => {
      if (p.id !== undefined) withIds += 1;
      return withIds === 2;
    });
    const cursor = head.at(-1)?.id;
    expect(cursor).toEqual(expect.any(String));
    // Everything the run wrote before its hold is in Redis (another reader has seen it all).
    let custom = 0;
    await collect(client.runs.joinStream(thread.thread_id, run.run_id), (p) => {
      if (p.event === "custom") custom += 1;
      return custom === 30;
    });

    await server.restartEmpty();
    const resuming = collect(
      client.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: cursor }),
      (p) => p.event === "gap",
    );
    // Give the resume a moment to find the stream gone before the run publishes again (the
    // outcome must be the gap either way).
    await new Promise((resolve) => setTimeout(resolve, 200));
    controls.release("lost");
    const resumed = await resuming;

    expect(resumed.map((p) => p.event)).toEqual(["gap"]);
    expect(resumed[0]?.data).toMatchObject({
      code: "stream_replay_gap",
      run_id: run.run_id,
      requested_event_id: cursor,
      recovery: "reload_durable_state",
    });

    // The client reloads durable state, then joins afresh: the post-restart events, once.
    await client.runs.join(thread.thread_id, run.run_id);
    const state = await client.threads.getState(thread.thread_id);
    expect(JSON.stringify(state.values)).toContain("echo: burst:30 hold:lost");
    const fresh = await collect(client.runs.joinStream(thread.thread_id, run.run_id));
    expect(fresh.map((p) => p.event)).not.toContain("end");
    const ids = [...head, ...fresh].flatMap((p) => (p.id === undefined ? [] : [p.id]));
    expect(ids.length).toBeGreaterThan(2);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
