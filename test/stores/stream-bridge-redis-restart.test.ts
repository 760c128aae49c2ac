/**
 * A Redis that loses every stream (restarted empty, no persistence) under a run that goes on: a
 * reader that resumes with its Last-Event-ID, or that stayed connected across the restart, gets a
 * gap — never the new stream's events as if they continued its cursor — and no event twice. The
 * server is this file's own `redis-server` on a spare port, killed and restarted by the tests.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { StreamItem } from "../../src/ports/stream-bridge.js";
import { RedisStreamBridge } from "../../src/stores/redis/stream-bridge.js";
import { type PrivateRedis, startPrivateRedis } from "../helpers/redis.js";

const redis = await startPrivateRedis();
const HEARTBEAT_MS = 50;

afterAll(async () => {
  await redis?.stop();
});

const eventIds = (items: StreamItem[]): string[] =>
  items.flatMap((item) => (item.kind === "event" ? [item.event.id] : []));

/** Everything but heartbeats, until the bridge ends the iteration. */
async function drain(iterator: AsyncIterator<StreamItem>): Promise<StreamItem[]> {
  const items: StreamItem[] = [];
  for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
    if (step.value.kind !== "heartbeat") items.push(step.value);
  }
  return items;
}

describe.skipIf(redis === null)("Redis stream bridge when Redis restarts empty", () => {
  let server: PrivateRedis;
  let producer: RedisStreamBridge;
  let reader: RedisStreamBridge;
  let runId: string;

  beforeAll(() => {
    if (redis === null) throw new Error("no private redis-server");
    server = redis;
  });

  beforeEach(() => {
    runId = `run-${randomUUID()}`;
    // Two bridges, as a run's worker and the server a browser reconnects to would hold.
    producer = new RedisStreamBridge({ url: server.url });
    reader = new RedisStreamBridge({ url: server.url });
  });

  afterEach(async () => {
    await Promise.all([producer.close(), reader.close()]);
  });

  async function publish(count: number, from: number): Promise<string[]> {
    const ids: string[] = [];
    for (let n = from; n < from + count; n += 1) {
      ids.push(await producer.publish(runId, "values", { n }));
    }
    return ids;
  }

  /** A client reads the first two events, then goes away like a closed browser tab. */
  async function readTwoAndLeave(): Promise<string[]> {
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const item of reader.subscribe(runId, { signal: controller.signal })) {
      if (item.kind === "event") seen.push(item.event.id);
      if (seen.length === 2) controller.abort();
    }
    return seen;
  }

  it("a client resuming while the stream is gone gets a gap, not the events that follow", async () => {
    const before = await publish(35, 0);
    const seen = await readTwoAndLeave();
    expect(seen).toEqual(before.slice(0, 2));

    await server.restartEmpty();
    // The client comes back with its Last-Event-ID while Redis holds nothing of the run ...
    const resumed = reader
      .subscribe(runId, { lastEventId: seen[1], heartbeatMs: HEARTBEAT_MS })
      [Symbol.asyncIterator]();
    const first = await resumed.next();
    // ... and the run keeps publishing into a new stream.
    const after = await publish(5, 35);
    await producer.publishEnd(runId);
    const rest = first.done ? [] : [first.value, ...(await drain(resumed))];

    expect(rest.filter((item) => item.kind !== "heartbeat")).toEqual([
      {
        kind: "gap",
        gap: {
          requestedEventId: seen[1],
          earliestAvailableEventId: null,
          latestAvailableEventId: null,
        },
      },
    ]);
    // After the gap the client reloads and joins afresh: what the new stream holds, once.
    const fresh = await drain(reader.subscribe(runId)[Symbol.asyncIterator]());
    expect(eventIds(fresh)).toEqual(after);
    expect(fresh.at(-1)).toEqual({ kind: "end" });
    const delivered = [...seen, ...eventIds(fresh)];
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
  });

  it("a client resuming after the run published into the new stream gets a gap", async () => {
    const before = await publish(35, 0);
    const seen = await readTwoAndLeave();
    await server.restartEmpty();
    const after = await publish(5, 35);

    const items = await drain(
      reader.subscribe(runId, { lastEventId: seen[1] })[Symbol.asyncIterator](),
    );

    expect(items).toEqual([
      {
        kind: "gap",
        gap: {
          requestedEventId: seen[1],
          earliestAvailableEventId: after[0],
          latestAvailableEventId: after[4],
        },
      },
    ]);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
  });

  it("a subscriber connected across the restart gets a gap, not a silent jump", async () => {
    const before = await publish(3, 0);
    const live = reader.subscribe(runId, { heartbeatMs: HEARTBEAT_MS })[Symbol.asyncIterator]();
    const head: StreamItem[] = [];
    while (head.length < 3) {
      const step = await live.next();
      if (!step.done && step.value.kind === "event") head.push(step.value);
    }
    expect(eventIds(head)).toEqual(before);
    // Parked in its blocking read when Redis goes away.
    const pending = live.next();

    await server.restartEmpty();
    await publish(4, 3);
    await producer.publishEnd(runId);

    const first = await pending;
    const rest = first.done ? [] : [first.value, ...(await drain(live))];
    expect(rest.filter((item) => item.kind !== "heartbeat")).toEqual([
      {
        kind: "gap",
        gap: expect.objectContaining({ requestedEventId: before[2] }),
      },
    ]);
  });
});
