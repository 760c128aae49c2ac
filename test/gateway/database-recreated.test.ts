/**
 * The PostgreSQL database is dropped under a running server and created again, empty. While it
 * is gone `/health` answers 503 with the store down; once it is back the server re-creates its
 * schema by itself and serves again, without a restart. Uses a database of its own.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

const testDatabase = await createPostgresTestDatabase("recreated");

async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function health(h: GatewayHarness): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${h.url}/health`);
  return { status: response.status, body: await response.json() };
}

describe.skipIf(testDatabase === null)("PostgreSQL database dropped and re-created", () => {
  let h: GatewayHarness;
  const logLines: Array<{ msg?: string }> = [];
  const logSink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        logLines.push(JSON.parse(line));
      }
      done();
    },
  });
  beforeAll(async () => {
    if (testDatabase === null) return;
    h = await startGatewayHarness({
      database: { url: testDatabase.url },
      logger: pino({ level: "warn" }, logSink),
    });
  });
  afterAll(async () => {
    await h?.close();
    await testDatabase?.drop();
  });

  it("reports the store down while it is gone and recovers once it is back", async () => {
    if (testDatabase === null) return;
    expect(await health(h)).toEqual({
      status: 200,
      body: { status: "healthy", service: "fawn", store: "up" },
    });
    await h.client.threads.create({ metadata: { phase: "before" } });

    await testDatabase.drop();
    const down = await eventually(
      () => health(h),
      (answer) => answer.status === 503,
    );
    // A client polling a down server: each answer is a retryable 503, logged once, not 20 times.
    for (let i = 0; i < 20; i += 1) {
      expect((await fetch(`${h.apiUrl}/threads/search`, { method: "POST" })).status).toBe(503);
      expect((await health(h)).status).toBe(503);
    }
    const count = (msg: string) => logLines.filter((line) => line.msg === msg).length;
    expect({
      unavailable: count("store unavailable"),
      health: count("health: store down"),
    }).toEqual({ unavailable: 1, health: 1 });
    expect(down).toEqual({
      status: 503,
      body: {
        status: "unhealthy",
        service: "fawn",
        store: "down",
        detail: expect.any(String),
        code: "store_unavailable",
      },
    });

    await testDatabase.recreate();
    // Without any /health probe: the failing queries themselves bring the schema back.
    const served = await eventually(
      () => fetch(`${h.apiUrl}/threads/search`, { method: "POST" }).then((r) => r.status),
      (status) => status === 200,
    );
    expect(served).toBe(200);
    expect(await health(h)).toEqual({
      status: 200,
      body: { status: "healthy", service: "fawn", store: "up" },
    });
    const thread = await h.client.threads.create({ metadata: { phase: "after" } });
    expect((await h.client.threads.get(thread.thread_id)).metadata).toEqual({ phase: "after" });
    const run = await h.client.runs.wait(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "back" }] },
    });
    expect(run).toMatchObject({ messages: expect.any(Array) });
    expect((await h.client.threads.search({ metadata: { phase: "after" } })).length).toBe(1);
  }, 90_000);
});
