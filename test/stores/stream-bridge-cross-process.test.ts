/**
 * Resumable streams across processes: a child process (a real `node` running the bridge through
 * tsx) produces a run's events into Redis while this process subscribes mid-stream, drops the
 * connection, and resumes with Last-Event-ID — the way a browser reconnects to a different
 * `fawn serve` than the one running the run.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { StreamItem } from "../../src/ports/stream-bridge.js";
import { RedisStreamBridge } from "../../src/stores/redis/stream-bridge.js";
import {
  deleteKeysWithPrefix,
  type ProducerReport,
  type ProducerScript,
  requireTestRedis,
  uniqueKeyPrefix,
} from "../helpers/redis.js";

const redisUrl = await requireTestRedis();
const keyPrefix = uniqueKeyPrefix("stream-cross-process");
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const helperModule = pathToFileURL(fileURLToPath(new URL("../helpers/redis.ts", import.meta.url)));

interface Producer {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  /** The next report line from the child. */
  next(): Promise<ProducerReport>;
  proceed(): void;
  /** Resolves when the child exits 0; rejects with its stderr otherwise. */
  exited: Promise<void>;
}

/** Starts `runScriptedProducer` in a fresh node process that loads TypeScript through tsx. */
function startProducer(script: ProducerScript): Producer {
  const code = `const { runScriptedProducer } = await import(${JSON.stringify(helperModule.href)});
await runScriptedProducer();`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: projectRoot,
    env: { ...process.env, FAWN_PRODUCER_SCRIPT: JSON.stringify(script) },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, "exit").then(([code]) => {
    if (code !== 0) throw new Error(`producer exited with ${String(code)}:\n${stderr}`);
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    pid: child.pid ?? -1,
    exited,
    proceed: () => child.stdin.write("continue\n"),
    async next() {
      const line = await Promise.race([lines.next(), exited.then(() => null)]);
      if (!line || line.done) throw new Error(`producer stopped before reporting:\n${stderr}`);
      return JSON.parse(line.value) as ProducerReport;
    },
  };
}

const eventIds = (items: StreamItem[]): string[] =>
  items.flatMap((item) => (item.kind === "event" ? [item.event.id] : []));

describe.skipIf(redisUrl === null)("Redis stream bridge across processes", () => {
  const bridges: RedisStreamBridge[] = [];
  const producers: Producer[] = [];

  function openBridge(): RedisStreamBridge {
    if (redisUrl === null) throw new Error("Redis is not reachable");
    const bridge = new RedisStreamBridge({ url: redisUrl, keyPrefix });
    bridges.push(bridge);
    return bridge;
  }

  function produce(script: Omit<ProducerScript, "url" | "keyPrefix">): Producer {
    if (redisUrl === null) throw new Error("Redis is not reachable");
    const producer = startProducer({ ...script, url: redisUrl, keyPrefix });
    producers.push(producer);
    return producer;
  }

  afterEach(async () => {
    for (const producer of producers.splice(0)) {
      if (producer.child.exitCode === null) producer.child.kill();
    }
    for (const bridge of bridges.splice(0)) await bridge.close();
  });

  afterAll(async () => {
    if (redisUrl !== null) await deleteKeysWithPrefix(redisUrl, keyPrefix);
  });

  it("a reader that disconnects mid-stream resumes with Last-Event-ID: every event once, then end", async () => {
    const runId = `run-${randomUUID()}`;
    const producer = produce({ runId, before: 40, after: 160 });
    const ready = await producer.next();
    expect(ready.type).toBe("ready");

    const bridge = openBridge();
    // The lease the child started is visible here: another process can see who produces.
    const lease = await bridge.producerLease(runId);
    expect(lease).toMatchObject({
      state: "started",
      instance: expect.stringContaining(`:${producer.pid}`),
    });
    expect(producer.pid).not.toBe(process.pid);

    // First connection: read part of what is there, then go away like a closed browser tab.
    const controller = new AbortController();
    const seen: StreamItem[] = [];
    for await (const item of bridge.subscribe(runId, { signal: controller.signal })) {
      seen.push(item);
      if (seen.length === 25) controller.abort();
    }
    const lastEventId = eventIds(seen).at(-1);
    expect(eventIds(seen)).toEqual(ready.ids.slice(0, 25));

    // The producer carries on while we reconnect with the last id we saw.
    producer.proceed();
    const resumed: StreamItem[] = [];
    for await (const item of bridge.subscribe(runId, { lastEventId, heartbeatMs: 1_000 })) {
      if (item.kind !== "heartbeat") resumed.push(item);
    }

    const done = await producer.next();
    await producer.exited;
    expect(done.type).toBe("done");
    expect(done.ids).toHaveLength(200);
    expect(done.ids.slice(0, 40)).toEqual(ready.ids);
    expect(eventIds(resumed)).toEqual(done.ids.slice(25));
    expect(resumed.at(-1)).toEqual({ kind: "end" });
    expect(resumed.filter((item) => item.kind === "end")).toHaveLength(1);
    expect(resumed[0]).toMatchObject({ event: { data: { n: 25, pid: producer.pid } } });
    expect(await bridge.producerLease(runId)).toMatchObject({
      state: "finished",
      owner: `run-finalization-${runId}`,
    });
  });

  it("a reader that comes back after the window moved on gets a gap, not a silent loss", async () => {
    const runId = `run-${randomUUID()}`;
    const producer = produce({ runId, before: 10, after: 40, queueMaxSize: 16 });
    const ready = await producer.next();
    const bridge = openBridge();
    const lastEventId = ready.ids[4];

    producer.proceed();
    const done = await producer.next();
    await producer.exited;

    const items: StreamItem[] = [];
    for await (const item of bridge.subscribe(runId, { lastEventId })) items.push(item);
    expect(items).toEqual([
      {
        kind: "gap",
        gap: {
          requestedEventId: lastEventId,
          earliestAvailableEventId: done.ids[34],
          latestAvailableEventId: done.ids[49],
        },
      },
    ]);
  });
});
