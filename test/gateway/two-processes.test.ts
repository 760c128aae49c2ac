/**
 * Two real `fawn serve` processes sharing PostgreSQL and Redis (FAWN_DATABASE_URL,
 * FAWN_REDIS_URL): a run streamed from one is re-joined through the other with `Last-Event-ID`
 * and every remaining event arrives once; both shut down gracefully on SIGTERM.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, startFawnServe } from "../helpers/fawn-serve-process.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { deleteKeysWithPrefix, requireTestRedis } from "../helpers/redis.js";

const postgres = await createPostgresTestDatabase("gateway_two_processes");
const redisUrl = await requireTestRedis();
const enabled = postgres !== null && redisUrl !== null;

let home: string;
let a: ServeProcess | undefined;
let b: ServeProcess | undefined;
const runIds: string[] = [];

beforeAll(async () => {
  if (!enabled) return;
  home = await mkdtemp(join(tmpdir(), "fawn-two-processes-"));
  const env = { FAWN_DATABASE_URL: postgres?.url, FAWN_REDIS_URL: redisUrl ?? undefined };
  [a, b] = await Promise.all([
    startFawnServe(join(home, "a"), env),
    startFawnServe(join(home, "b"), env),
  ]);
}, 60_000);

afterAll(async () => {
  for (const server of [a, b]) {
    if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
  }
  await postgres?.drop();
  if (redisUrl)
    for (const runId of runIds) await deleteKeysWithPrefix(redisUrl, `fawn:stream:{${runId}}`);
  if (home) await rm(home, { recursive: true, force: true });
});

interface Part {
  event: string;
  data: unknown;
  id?: string;
}

describe.skipIf(!enabled)("two fawn serve processes sharing PostgreSQL and Redis", () => {
  it("re-joins through the other process with Last-Event-ID and shuts down gracefully", async () => {
    if (!a || !b) throw new Error("servers not started");
    const clientA = new Client({ apiUrl: a.apiUrl, apiKey: null });
    const clientB = new Client({ apiUrl: b.apiUrl, apiKey: null });
    const thread = await clientA.threads.create();
    let runId = "";
    const head: Part[] = [];
    for await (const part of clientA.runs.stream(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "across processes" }] },
      streamMode: ["values", "updates"],
      onRunCreated: (meta) => {
        runId = meta.run_id;
      },
    })) {
      head.push(part as Part);
      if (head.length === 2) break;
    }
    runIds.push(runId);
    const cursor = head.at(-1)?.id;
    const rest: Part[] = [];
    for await (const part of clientB.runs.joinStream(thread.thread_id, runId, {
      lastEventId: cursor,
    })) {
      rest.push(part as Part);
    }
    expect(rest.map((p) => p.event)).not.toContain("end");
    const all: Part[] = [];
    for await (const part of clientB.runs.joinStream(thread.thread_id, runId))
      all.push(part as Part);
    const key = (p: Part) => `${p.id}|${p.event}`;
    const seen = [...head, ...rest].map(key);
    expect(seen).toEqual(all.map(key));
    expect(new Set(seen).size).toBe(seen.length);

    // `fawn serve` runs the lead agent; with no model configured the offline demo model answers.
    const state = await clientB.threads.getState<{
      messages: Array<{ type: string; content: unknown }>;
    }>(thread.thread_id);
    expect(state.values.messages[0]).toMatchObject({ type: "human", content: "across processes" });
    expect(state.values.messages.at(-1)?.type).toBe("ai");
    expect((await clientB.runs.get(thread.thread_id, runId)).status).toBe("success");

    a.child.kill("SIGTERM");
    b.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
  });
});
