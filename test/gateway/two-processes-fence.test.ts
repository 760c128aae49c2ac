/**
 * Write fencing across real processes: two `fawn serve` processes on PostgreSQL and Redis with a
 * short lease. Server A owns a run that is still streaming; A is paused (SIGSTOP) past lease +
 * grace, B recovers the run (`error`, recovered `run.terminal`, END on the stream), then A wakes
 * up (SIGCONT) not knowing. Whatever A tries next must be refused by the stores: the run's event
 * log ends at its one `run.terminal`, nothing lands on its Redis stream after END, the thread's
 * checkpoints are the ones it had at the takeover and its status is the one B gave it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type ServeProcess, startFawnServe } from "../helpers/fawn-serve-process.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { deleteKeysWithPrefix, openTestRedis, requireTestRedis } from "../helpers/redis.js";

const postgres = await createPostgresTestDatabase("gateway_fence");
const redisUrl = await requireTestRedis();
const enabled = postgres !== null && redisUrl !== null;
const LEASE_SECONDS = 5;

/** A slow answer: one token every 100 ms for about a minute, so A is mid-stream when paused. */
async function writeConfig(home: string): Promise<string> {
  await mkdir(home, { recursive: true });
  const script = join(home, "slow.yaml");
  await writeFile(
    script,
    stringify([{ turns: [{ content: "slow ".repeat(600) }], stream_delay_ms: 100 }]),
  );
  const config = join(home, "config.yaml");
  await writeFile(
    config,
    stringify({
      models: [{ name: "scripted", use: "scripted", model: "s", script }],
      runtime: { lease_seconds: LEASE_SECONDS, grace_seconds: 0, recovery_interval_seconds: 1 },
    }),
  );
  return config;
}

async function startServe(home: string): Promise<ServeProcess> {
  return startFawnServe(home, {
    FAWN_CONFIG: await writeConfig(home),
    FAWN_DATABASE_URL: postgres?.url,
    FAWN_REDIS_URL: redisUrl ?? undefined,
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

interface ApiEvent {
  seq: number;
  event_type: string;
}

let home: string;
let a: ServeProcess | undefined;
let b: ServeProcess | undefined;
const runIds: string[] = [];

beforeAll(async () => {
  if (!enabled) return;
  home = await mkdtemp(join(tmpdir(), "fawn-fence-"));
  [a, b] = await Promise.all([startServe(join(home, "a")), startServe(join(home, "b"))]);
}, 60_000);

afterAll(async () => {
  for (const server of [a, b]) {
    if (server && server.child.exitCode === null) {
      server.child.kill("SIGCONT");
      server.child.kill("SIGKILL");
    }
  }
  await postgres?.drop();
  if (redisUrl)
    for (const runId of runIds) await deleteKeysWithPrefix(redisUrl, `fawn:stream:{${runId}}`);
  if (home) await rm(home, { recursive: true, force: true });
});

describe.skipIf(!enabled)("a paused owner that wakes after a peer recovered its run", () => {
  it("makes no durable write and publishes nothing after the peer's terminal", async () => {
    if (!a || !b || !redisUrl) throw new Error("servers not started");
    const clientA = new Client({ apiUrl: a.apiUrl, apiKey: null });
    const clientB = new Client({ apiUrl: b.apiUrl, apiKey: null });
    const thread = await clientA.threads.create();
    const run = await clientA.runs.create(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "take your time" }] },
      streamMode: ["messages-tuple"],
    });
    runIds.push(run.run_id);
    const eventsUrl = `${b.apiUrl}/threads/${thread.thread_id}/runs/${run.run_id}/events`;
    const events = async (): Promise<ApiEvent[]> =>
      (await (await fetch(eventsUrl)).json()) as ApiEvent[];
    const redis = openTestRedis(redisUrl);
    await redis.connect();
    const streamKey = `fawn:stream:{${run.run_id}}`;
    // A is inside the model call, its tokens on the stream (its journal holds them in its buffer).
    await waitFor("the run to stream on A", async () => (await redis.xlen(streamKey)) >= 5);

    a.child.kill("SIGSTOP");
    await waitFor("B to recover the run", async () => {
      const recovered = await clientB.runs.get(thread.thread_id, run.run_id);
      const terminal = (await events()).some((event) => event.event_type === "run.terminal");
      return recovered.status === "error" && terminal;
    });
    await waitFor("END on the run's stream", async () => {
      const newest = await redis.xrevrange(streamKey, "+", "-", "COUNT", 1);
      return newest[0]?.[1].includes("end") ?? false;
    });

    // The thread as B left it: A must change neither its checkpoints nor its status.
    const checkpointIds = async (): Promise<string[]> =>
      (await clientB.threads.getHistory(thread.thread_id, { limit: 1000 })).map(
        (state) => state.checkpoint.checkpoint_id ?? "",
      );
    const checkpointsAtTakeover = await checkpointIds();
    const statusAtTakeover = (await clientB.threads.get(thread.thread_id)).status;

    a.child.kill("SIGCONT");
    // A's timers fire at once: model tokens, heartbeat, journal flushes. Give it time to try.
    await sleep(LEASE_SECONDS * 1000);

    const stored = await events();
    const terminals = stored.filter((event) => event.event_type === "run.terminal");
    expect(terminals).toHaveLength(1);
    const terminalSeq = terminals[0]?.seq ?? 0;
    expect(stored.filter((event) => event.seq > terminalSeq)).toEqual([]);

    const entries = await redis.xrange(streamKey, "-", "+");
    redis.disconnect();
    const endAt = entries.findIndex(([, fields]) => fields.includes("end"));
    expect(endAt).toBeGreaterThanOrEqual(0);
    expect(entries.slice(endAt + 1).map(([id]) => id)).toEqual([]);
    expect((await clientB.runs.get(thread.thread_id, run.run_id)).status).toBe("error");
    expect(await checkpointIds()).toEqual(checkpointsAtTakeover);
    expect((await clientB.threads.get(thread.thread_id)).status).toBe(statusAtTakeover);
  }, 120_000);
});
