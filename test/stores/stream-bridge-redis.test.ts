/**
 * The StreamBridge contract against Redis, then what only the Redis bridge promises: its key and
 * entry layout, exact trimming, TTLs, the `prev` link that makes gap detection exact, dedicated
 * blocking connections, failure handling and the shared producer lease. Keys live under a prefix
 * unique to this file and are deleted afterwards (see test/helpers/redis.ts for the skip policy).
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ConfigError,
  OwnershipLostError,
  StoreError,
  ValidationError,
} from "../../src/core/errors.js";
import type { StreamItem } from "../../src/ports/stream-bridge.js";
import type { RedisConnectionRole } from "../../src/stores/redis/connections.js";
import {
  RedisStreamBridge,
  type RedisStreamBridgeOptions,
} from "../../src/stores/redis/stream-bridge.js";
import { describeStreamBridge } from "../conformance/stream-bridge.js";
import {
  deleteKeysWithPrefix,
  openTestRedis,
  requireTestRedis,
  uniqueKeyPrefix,
} from "../helpers/redis.js";

const redisUrl = await requireTestRedis();
const keyPrefix = uniqueKeyPrefix("stream-bridge");
const QUIET_HEARTBEAT_MS = 600_000;

function url(): string {
  if (redisUrl === null) throw new Error("Redis is not reachable");
  return redisUrl;
}

describe.skipIf(redisUrl === null)("Redis stream bridge", () => {
  afterAll(async () => {
    if (redisUrl !== null) await deleteKeysWithPrefix(redisUrl, keyPrefix);
  });

  describeStreamBridge("redis", async (options) => ({
    bridge: new RedisStreamBridge({ url: url(), keyPrefix, ...options }),
  }));

  describe("RedisStreamBridge specifics", () => {
    const opened: RedisStreamBridge[] = [];
    let admin: Redis;
    let runId: string;

    function open(options: Partial<RedisStreamBridgeOptions> = {}): RedisStreamBridge {
      const bridge = new RedisStreamBridge({ url: url(), keyPrefix, ...options });
      opened.push(bridge);
      return bridge;
    }

    /** A bridge whose connections carry `name-<role>`, so CLIENT LIST can find exactly them. */
    function openNamed(name: string): RedisStreamBridge {
      const createClient = (role: RedisConnectionRole): Redis =>
        new Redis(url(), { connectionName: `${name}-${role}` });
      const bridge = new RedisStreamBridge({ createClient, keyPrefix });
      opened.push(bridge);
      return bridge;
    }

    async function publishMany(bridge: RedisStreamBridge, count: number): Promise<string[]> {
      const ids: string[] = [];
      for (let n = 0; n < count; n += 1) ids.push(await bridge.publish(runId, "values", { n }));
      return ids;
    }

    async function readAll(iterable: AsyncIterable<StreamItem>): Promise<StreamItem[]> {
      const items: StreamItem[] = [];
      for await (const item of iterable) if (item.kind !== "heartbeat") items.push(item);
      return items;
    }

    const labels = (items: StreamItem[]): string[] =>
      items.map((item) => (item.kind === "event" ? item.event.id : item.kind));

    /** Connections named `name` that the server lists: id and flags (`b` = blocked). */
    async function clientsNamed(name: string): Promise<Array<{ id: string; flags: string }>> {
      const list = String(await admin.client("LIST"));
      return list
        .split("\n")
        .filter((line) => line.includes(` name=${name} `))
        .map((line) => ({
          id: /(?:^|\s)id=(\d+)/.exec(line)?.[1] ?? "",
          flags: /flags=(\S*)/.exec(line)?.[1] ?? "",
        }));
    }

    /** Polls until `check` holds; a bridge that never gets there fails by the test timeout. */
    async function eventually(check: () => Promise<boolean>): Promise<void> {
      while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
    }

    beforeEach(async () => {
      runId = `run-${randomUUID()}`;
      admin = openTestRedis(url());
      await admin.connect();
    });

    afterEach(async () => {
      for (const bridge of opened.splice(0)) await bridge.close();
      admin.disconnect();
    });

    describe("write fence", () => {
      it("keeps a fenced-out writer out after cleanup dropped the stream", async () => {
        const bridge = open();
        await bridge.publish(runId, "values", { n: 0 }, { fence: { runId, workerId: "w-a" } });
        await bridge.publishEnd(runId, { fence: { runId, workerId: "w-b" } });
        await bridge.cleanup(runId);
        await expect(
          bridge.publish(runId, "values", { n: 1 }, { fence: { runId, workerId: "w-a" } }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        expect(await bridge.streamExists(runId)).toBe(false);
        expect(await admin.get(bridge.writerKey(runId))).toBe("w-b");
        expect(await admin.ttl(bridge.writerKey(runId))).toBeGreaterThan(0);
      });
    });

    describe("layout", () => {
      it("keeps one stream per run under the prefix, with a prev link and the stream's epoch", async () => {
        const bridge = open();
        const [first, second] = await publishMany(bridge, 2);
        await bridge.publishEnd(runId);

        expect(bridge.streamKey(runId)).toBe(`${keyPrefix}{${runId}}`);
        // Event ids are the Redis entry id and the epoch the stream's first entry picked.
        const [firstEntry, epoch] = (first ?? "").split(".");
        const [secondEntry, secondEpoch] = (second ?? "").split(".");
        expect(first).toMatch(/^\d+-\d+\.[0-9a-f]{12}$/);
        expect(secondEpoch).toBe(epoch);
        const entries = await admin.xrange(bridge.streamKey(runId), "-", "+");
        const event = (n: number, prev: string | undefined) => [
          "kind",
          "event",
          "event",
          "values",
          "data",
          `{"n":${n}}`,
          "prev",
          prev,
          "epoch",
          epoch,
        ];
        expect(entries).toEqual([
          [firstEntry, event(0, "0-0")],
          [secondEntry, event(1, firstEntry)],
          [expect.any(String), ["kind", "end", "prev", secondEntry, "epoch", epoch]],
        ]);
      });

      it("trims to exactly queueMaxSize events, plus one slot for a single end marker", async () => {
        const bridge = open({ queueMaxSize: 4 });
        const ids = await publishMany(bridge, 10);
        expect(await admin.xlen(bridge.streamKey(runId))).toBe(4);

        await bridge.publishEnd(runId);
        await bridge.publishEnd(runId);

        const entries = await admin.xrange(bridge.streamKey(runId), "-", "+");
        const entryIds = ids.map((id) => id.split(".")[0]);
        expect(entries.map(([id]) => id).slice(0, 4)).toEqual(entryIds.slice(6));
        expect(entries.filter(([, fields]) => fields[1] === "end")).toHaveLength(1);
        expect(entries).toHaveLength(5);
      });

      it("stores undefined data as null and rejects data JSON cannot hold", async () => {
        const bridge = open();
        await bridge.publish(runId, "custom", undefined);
        await bridge.publishEnd(runId);
        expect(await readAll(bridge.subscribe(runId))).toMatchObject([
          { kind: "event", event: { event: "custom", data: null } },
          { kind: "end" },
        ]);
        await expect(bridge.publish(runId, "custom", { big: 1n })).rejects.toThrow(ValidationError);
      });
    });

    describe("expiry", () => {
      it("gives the stream and the lease the default one-day TTL on every write", async () => {
        const bridge = open();
        await bridge.startProducerLease(runId);
        await bridge.publish(runId, "values", {});
        for (const key of [bridge.streamKey(runId), bridge.leaseKey(runId)]) {
          const ttl = await admin.ttl(key);
          expect(ttl, key).toBeGreaterThan(86_000);
          expect(ttl, key).toBeLessThanOrEqual(86_400);
        }
      });

      it("refreshes a custom TTL with each add, and sets none when it is 0", async () => {
        const short = open({ streamTtlSeconds: 60 });
        await short.publish(runId, "values", {});
        await admin.expire(short.streamKey(runId), 5);
        await short.publishEnd(runId);
        expect(await admin.ttl(short.streamKey(runId))).toBeGreaterThan(5);

        const forever = open({ streamTtlSeconds: 0 });
        const other = `run-${randomUUID()}`;
        await forever.startProducerLease(other);
        await forever.publish(other, "values", {});
        expect(await admin.ttl(forever.streamKey(other))).toBe(-1);
        expect(await admin.ttl(forever.leaseKey(other))).toBe(-1);
      });

      it("rejects a bad window size or TTL", () => {
        expect(() => open({ queueMaxSize: 0 })).toThrow(ConfigError);
        expect(() => open({ streamTtlSeconds: -1 })).toThrow(ConfigError);
        expect(() => open({ streamTtlSeconds: 1.5 })).toThrow(ConfigError);
      });
    });

    describe("exact gaps", () => {
      it("resumes without a gap from the event just before the window (nothing was lost)", async () => {
        const bridge = open({ queueMaxSize: 3 });
        const ids = await publishMany(bridge, 6);
        await bridge.publishEnd(runId);
        const items = await readAll(bridge.subscribe(runId, { lastEventId: ids[2] }));
        expect(labels(items)).toEqual([...ids.slice(3), "end"]);
      });

      it("a live subscriber whose next event is exactly the oldest retained one continues", async () => {
        const bridge = open({ queueMaxSize: 4 });
        const iterator = bridge
          .subscribe(runId, { heartbeatMs: QUIET_HEARTBEAT_MS })
          [Symbol.asyncIterator]();
        const first = iterator.next();
        const [firstId] = await publishMany(bridge, 1);
        expect(await first).toMatchObject({ value: { event: { id: firstId } } });

        const rest = await publishMany(bridge, 4);
        await bridge.publishEnd(runId);

        const items: StreamItem[] = [];
        for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
          items.push(step.value);
        }
        expect(labels(items)).toEqual([...rest, "end"]);
      });

      it("a subscriber that saw an empty stream gets a gap if its first event was evicted", async () => {
        const bridge = open({ queueMaxSize: 4 });
        const iterator = bridge.subscribe(runId, { heartbeatMs: 20 })[Symbol.asyncIterator]();
        // The heartbeat proves it read the stream while empty and is parked between polls.
        expect((await iterator.next()).value).toEqual({ kind: "heartbeat" });

        const ids = await publishMany(bridge, 10);

        let next = await iterator.next();
        while (next.value?.kind === "heartbeat") next = await iterator.next();
        expect(next.value).toEqual({
          kind: "gap",
          gap: {
            requestedEventId: null,
            earliestAvailableEventId: ids[6],
            latestAvailableEventId: ids[9],
          },
        });
        expect((await iterator.next()).done).toBe(true);
      });

      it("a subscriber that saw an empty stream gets every event once the first is retained", async () => {
        const bridge = open({ queueMaxSize: 4 });
        const iterator = bridge.subscribe(runId, { heartbeatMs: 20 })[Symbol.asyncIterator]();
        expect((await iterator.next()).value).toEqual({ kind: "heartbeat" });

        const ids = await publishMany(bridge, 4);
        await bridge.publishEnd(runId);

        const items: StreamItem[] = [];
        for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
          if (step.value.kind !== "heartbeat") items.push(step.value);
        }
        expect(labels(items)).toEqual([...ids, "end"]);
      });

      it("reads a backlog longer than one poll batch in order", async () => {
        const bridge = open();
        const ids = await publishMany(bridge, 150);
        await bridge.publishEnd(runId);
        expect(labels(await readAll(bridge.subscribe(runId, { lastEventId: ids[10] })))).toEqual([
          ...ids.slice(11),
          "end",
        ]);
      });
    });

    describe("lost streams", () => {
      /** The gap of a cursor whose stream is gone: nothing is available. */
      const goneGap = (requestedEventId: string | undefined) => ({
        kind: "gap",
        gap: { requestedEventId, earliestAvailableEventId: null, latestAvailableEventId: null },
      });

      /** Reads everything but heartbeats until the bridge ends the iteration. */
      async function drain(iterator: AsyncIterator<StreamItem>): Promise<StreamItem[]> {
        const items: StreamItem[] = [];
        for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
          if (step.value.kind !== "heartbeat") items.push(step.value);
        }
        return items;
      }

      it("a cursor into an evicted stream is a gap, also once the run publishes again", async () => {
        const bridge = open();
        const ids = await publishMany(bridge, 5);
        await admin.del(bridge.streamKey(runId));

        const resumed = bridge
          .subscribe(runId, { lastEventId: ids[1], heartbeatMs: 20 })
          [Symbol.asyncIterator]();
        const first = await resumed.next();
        const more = await publishMany(bridge, 3);
        await bridge.publishEnd(runId);
        const items = first.done ? [] : [first.value, ...(await drain(resumed))];

        expect(items.filter((item) => item.kind !== "heartbeat")).toEqual([goneGap(ids[1])]);
        // A fresh subscriber (no cursor) gets the new stream as it is, without a gap.
        expect(labels(await readAll(bridge.subscribe(runId)))).toEqual([...more, "end"]);
      });

      it("a cursor of the stream before eviction is a gap in the re-created one", async () => {
        const bridge = open();
        const ids = await publishMany(bridge, 5);
        await admin.del(bridge.streamKey(runId));
        const more = await publishMany(bridge, 3);

        expect(await readAll(bridge.subscribe(runId, { lastEventId: ids[4] }))).toEqual([
          {
            kind: "gap",
            gap: {
              requestedEventId: ids[4],
              earliestAvailableEventId: more[0],
              latestAvailableEventId: more[2],
            },
          },
        ]);
      });

      it("a cursor into an expired stream is a gap", async () => {
        const bridge = open({ streamTtlSeconds: 1 });
        const ids = await publishMany(bridge, 3);
        await eventually(async () => (await admin.exists(bridge.streamKey(runId))) === 0);

        const resumed = bridge
          .subscribe(runId, { lastEventId: ids[0], heartbeatMs: 20 })
          [Symbol.asyncIterator]();
        const first = await resumed.next();
        await publishMany(bridge, 2);
        const items = first.done ? [] : [first.value, ...(await drain(resumed))];

        expect(items.filter((item) => item.kind !== "heartbeat")).toEqual([goneGap(ids[0])]);
      });

      it("a live subscriber whose stream is deleted under it gets a gap", async () => {
        const bridge = open();
        const iterator = bridge.subscribe(runId, { heartbeatMs: 20 })[Symbol.asyncIterator]();
        const first = iterator.next();
        const [id] = await publishMany(bridge, 1);
        expect(await first).toMatchObject({ value: { kind: "event", event: { id } } });

        await admin.del(bridge.streamKey(runId));

        expect(await drain(iterator)).toEqual([goneGap(id)]);
      });

      it("a cursor trimmed past by MAXLEN is a gap, however far the window moved", async () => {
        const bridge = open({ queueMaxSize: 3 });
        const ids = await publishMany(bridge, 7);
        await bridge.publishEnd(runId);
        // ids[3] is exactly the entry before the window: nothing was lost after it.
        expect(labels(await readAll(bridge.subscribe(runId, { lastEventId: ids[3] })))).toEqual([
          ...ids.slice(4),
          "end",
        ]);
        for (const cursor of ids.slice(0, 3)) {
          expect(await readAll(bridge.subscribe(runId, { lastEventId: cursor }))).toEqual([
            {
              kind: "gap",
              gap: {
                requestedEventId: cursor,
                earliestAvailableEventId: ids[4],
                latestAvailableEventId: ids[6],
              },
            },
          ]);
        }
      });
    });

    describe("connections", () => {
      it("blocks each waiting subscriber on a connection of its own", async () => {
        const name = `fawn-test-${randomUUID().slice(0, 8)}`;
        const bridge = openNamed(name);
        const controller = new AbortController();
        const options = { heartbeatMs: QUIET_HEARTBEAT_MS };
        const aborted = bridge
          .subscribe(runId, { ...options, signal: controller.signal })
          [Symbol.asyncIterator]();
        const other = bridge.subscribe(runId, options)[Symbol.asyncIterator]();
        const firstOfAborted = aborted.next();
        const firstOfOther = other.next();
        const parked = async (count: number): Promise<boolean> => {
          const clients = await clientsNamed(`${name}-subscriber`);
          return clients.length === count && clients.every((client) => client.flags.includes("b"));
        };
        await eventually(() => parked(2));

        // Both are parked in blocking reads, yet the shared connection still answers at once.
        const id = await bridge.publish(runId, "values", {});
        expect(await bridge.streamExists(runId)).toBe(true);
        expect(await firstOfAborted).toMatchObject({ value: { event: { id } } });
        expect(await firstOfOther).toMatchObject({ value: { event: { id } } });

        const abortedNext = aborted.next();
        const otherNext = other.next();
        await eventually(() => parked(2));
        controller.abort();
        expect(await abortedNext).toEqual({ done: true, value: undefined });
        await eventually(async () => (await clientsNamed(`${name}-subscriber`)).length === 1);

        await bridge.close();
        expect(await otherNext).toEqual({ done: true, value: undefined });
        await eventually(async () => (await clientsNamed(`${name}-subscriber`)).length === 0);
        await eventually(async () => (await clientsNamed(`${name}-commands`)).length === 0);
      });

      it("keeps a subscriber going when its blocking connection is killed", async () => {
        const name = `fawn-test-${randomUUID().slice(0, 8)}`;
        const bridge = openNamed(name);
        const reading = readAll(bridge.subscribe(runId, { heartbeatMs: QUIET_HEARTBEAT_MS }));
        let blocked: Array<{ id: string; flags: string }> = [];
        await eventually(async () => {
          blocked = await clientsNamed(`${name}-subscriber`);
          return blocked.length === 1 && blocked.every((client) => client.flags.includes("b"));
        });

        // Only this subscriber's connection: the server is shared with other test files.
        for (const client of blocked) await admin.client("KILL", "ID", client.id);
        const ids = await publishMany(bridge, 3);
        await bridge.publishEnd(runId);

        expect(labels(await reading)).toEqual([...ids, "end"]);
      });
    });

    describe("failures", () => {
      it("gives up with a StoreError after repeated connection failures", async () => {
        const createClient = (): Redis => {
          const client = new Redis("redis://127.0.0.1:1", {
            lazyConnect: true,
            maxRetriesPerRequest: 0,
            retryStrategy: () => null,
          });
          return client;
        };
        const bridge = new RedisStreamBridge({ createClient, keyPrefix });
        opened.push(bridge);
        await expect(readAll(bridge.subscribe(runId))).rejects.toThrow(/failed 4 times in a row/);
        await expect(bridge.publish(runId, "values", {})).rejects.toThrow(StoreError);
      });

      it("fails at once when the server refuses the key (wrong type)", async () => {
        const bridge = open();
        await admin.set(bridge.streamKey(runId), "not a stream");
        const failure = readAll(bridge.subscribe(runId));
        await expect(failure).rejects.toThrow(StoreError);
        await expect(failure).rejects.toThrow(/refused by the server/);
        await expect(bridge.publish(runId, "values", {})).rejects.toThrow(StoreError);
      });

      it("refuses entries that a Fawn bridge did not write", async () => {
        const bridge = open();
        await admin.xadd(bridge.streamKey(runId), "*", "foo", "bar");
        await expect(readAll(bridge.subscribe(runId))).rejects.toThrow(/not a Fawn stream/);
      });

      it("rejects writes after close", async () => {
        const bridge = open();
        await bridge.close();
        await expect(bridge.publish(runId, "values", {})).rejects.toThrow(StoreError);
        expect(await readAll(bridge.subscribe(runId))).toEqual([]);
      });
    });

    describe("cleanup and lease", () => {
      it("cleanup deletes the stream and its lease", async () => {
        const bridge = open();
        await bridge.startProducerLease(runId);
        await bridge.publish(runId, "values", {});
        await bridge.cleanup(runId);
        expect(await admin.exists(bridge.streamKey(runId), bridge.leaseKey(runId))).toBe(0);
      });

      it("shows the producer lease to every bridge on the server", async () => {
        const producer = open({ instanceName: "worker-a" });
        const observer = open({ instanceName: "worker-b" });
        expect(await observer.producerLease(runId)).toBeUndefined();

        expect(await producer.startProducerLease(runId)).toBe(true);
        expect(await observer.producerLease(runId)).toMatchObject({
          state: "started",
          owner: null,
          instance: "worker-a",
        });
        expect(await observer.startProducerLease(runId)).toBe(false);

        producer.transferProducerLease(runId, { name: `run-finalization-${runId}` });
        expect(await producer.producerLease(runId)).toMatchObject({
          state: "transferred",
          owner: `run-finalization-${runId}`,
        });

        await producer.finishProducerLease(runId);
        const finished = await observer.producerLease(runId);
        expect(finished).toMatchObject({ state: "finished", owner: `run-finalization-${runId}` });
        expect(Number.isNaN(Date.parse(finished?.updatedAt ?? ""))).toBe(false);

        // A finished lease can be started again (say, by a peer re-running the stream).
        expect(await observer.startProducerLease(runId)).toBe(true);
        expect(await producer.producerLease(runId)).toMatchObject({
          state: "started",
          owner: null,
          instance: "worker-b",
        });
      });

      it("ignores transfer and finish when no lease was started", async () => {
        const bridge = open();
        bridge.transferProducerLease(runId, { name: "x" });
        await bridge.finishProducerLease(runId);
        expect(await bridge.producerLease(runId)).toBeUndefined();
      });
    });
  });
});
