/**
 * SIGTERM drains, with real processes: two `fawn serve` on PostgreSQL and a private Redis. A
 * runs a short and a long scripted run when it gets SIGTERM. While it drains it still answers,
 * `/health/ready` says 503 and a new run is refused (503 `server_draining`); the short run
 * finishes on A, the long one is handed to B through its lease when the drain deadline passes,
 * and A exits 0. Each run ends with exactly one `run.terminal`, its last durable event, agreeing
 * with its status.
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
import { startPrivateRedis } from "../helpers/redis.js";

const postgres = await createPostgresTestDatabase("sigterm_drain");
const redis = await startPrivateRedis();
const enabled = postgres !== null && redis !== null;
// Ample for the quick run (about 3 s of tokens) even when other test files load the machine; the
// slow one (about a minute) still outlives it.
const DRAIN_SECONDS = 20;

async function writeConfig(home: string): Promise<string> {
  await mkdir(home, { recursive: true });
  const script = join(home, "script.yaml");
  await writeFile(
    script,
    stringify([
      // About 3 s: ends inside the drain window.
      { match: "quick", turns: [{ content: "quick ".repeat(30) }], stream_delay_ms: 100 },
      // About a minute: still running when the drain deadline passes.
      { match: "slow", turns: [{ content: "slow ".repeat(600) }], stream_delay_ms: 100 },
    ]),
  );
  const config = join(home, "config.yaml");
  await writeFile(
    config,
    stringify({
      models: [{ name: "scripted", use: "scripted", model: "s", script }],
      runtime: {
        lease_seconds: 5,
        grace_seconds: 0,
        recovery_interval_seconds: 1,
        shutdown_timeout_seconds: DRAIN_SECONDS,
      },
    }),
  );
  return config;
}

async function startServe(home: string): Promise<ServeProcess> {
  return startFawnServe(home, {
    FAWN_CONFIG: await writeConfig(home),
    FAWN_DATABASE_URL: postgres?.url,
    FAWN_REDIS_URL: redis?.url,
    FAWN_LOG_LEVEL: "info",
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

interface ApiEvent {
  seq: number;
  event_type: string;
  content: { status?: string } | null;
}

let home: string;
let a: ServeProcess | undefined;
let b: ServeProcess | undefined;

beforeAll(async () => {
  if (!enabled) return;
  home = await mkdtemp(join(tmpdir(), "fawn-drain-"));
  [a, b] = await Promise.all([startServe(join(home, "a")), startServe(join(home, "b"))]);
}, 60_000);

afterAll(async () => {
  for (const server of [a, b]) {
    if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
  }
  await redis?.stop();
  await postgres?.drop();
  if (home) await rm(home, { recursive: true, force: true });
});

describe.skipIf(!enabled)("SIGTERM on a serving process", () => {
  it("refuses new runs, finishes what it can, hands the rest to its peer and exits 0", async () => {
    if (!a || !b) throw new Error("servers not started");
    const clientA = new Client({ apiUrl: a.apiUrl, apiKey: null });
    const clientB = new Client({ apiUrl: b.apiUrl, apiKey: null });
    const start = async (content: string) => {
      const thread = await clientA.threads.create();
      const run = await clientA.runs.create(thread.thread_id, "lead_agent", {
        input: { messages: [{ role: "user", content }] },
        streamMode: ["messages-tuple"],
      });
      return { threadId: thread.thread_id, runId: run.run_id };
    };
    const quick = await start("quick please");
    const slow = await start("slow please");
    for (const run of [quick, slow]) {
      await waitFor("the run to be running", async () => {
        return (await clientA.runs.get(run.threadId, run.runId)).status === "running";
      });
    }

    a.child.kill("SIGTERM");
    await waitFor("A to report draining", async () => {
      const ready = await fetch(`${a?.url}/health/ready`).catch(() => null);
      return ready?.status === 503;
    });
    const ready = await fetch(`${a.url}/health/ready`);
    expect(await ready.json()).toMatchObject({ code: "server_draining" });
    expect((await fetch(`${a.url}/health/live`)).status).toBe(200);
    const thread = await clientB.threads.create();
    const refused = await fetch(`${a.apiUrl}/threads/${thread.thread_id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        assistant_id: "lead_agent",
        input: { messages: [{ role: "user", content: "quick" }] },
      }),
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: "server_draining" });
    // B, not draining, still takes work.
    expect((await fetch(`${b.url}/health/ready`)).status).toBe(200);

    expect(await a.exited).toBe(0);

    const terminalsOf = async (run: { threadId: string; runId: string }) => {
      const url = `${b?.apiUrl}/threads/${run.threadId}/runs/${run.runId}/events`;
      const events = (await (await fetch(url)).json()) as ApiEvent[];
      const terminals = events.filter((event) => event.event_type === "run.terminal");
      const last = events.reduce((max, event) => Math.max(max, event.seq), 0);
      return { terminals, lastSeq: last };
    };
    // The short run finished on A itself.
    expect((await clientB.runs.get(quick.threadId, quick.runId)).status).toBe("success");
    const quickEvidence = await terminalsOf(quick);
    expect(quickEvidence.terminals).toHaveLength(1);
    expect(quickEvidence.terminals[0]?.content?.status).toBe("success");
    expect(quickEvidence.terminals[0]?.seq).toBe(quickEvidence.lastSeq);

    // The long one was handed off: B's recovery takes it over and writes its one terminal.
    await waitFor("B to take the long run over", async () => {
      const row = await clientB.runs.get(slow.threadId, slow.runId);
      return row.status === "error" && (await terminalsOf(slow)).terminals.length > 0;
    });
    const slowEvidence = await terminalsOf(slow);
    expect(slowEvidence.terminals).toHaveLength(1);
    expect(slowEvidence.terminals[0]?.content?.status).toBe("error");
    expect(slowEvidence.terminals[0]?.seq).toBe(slowEvidence.lastSeq);
  }, 120_000);
});
