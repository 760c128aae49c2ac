/**
 * Crons through the real `@langchain/langgraph-sdk` client against a served gateway (SQLite):
 * create (for a thread and stateless), search, count, update, delete, and firing by explicit
 * `tick(now)` calls (polling is off), each tick producing one run that `client.runs.list` shows.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayDepsOf } from "../../src/app/fawn-gateway.js";
import { createGatewayServices } from "../../src/gateway/app.js";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/gateway/assistants/assistant-catalog.js";
import { CronScheduler } from "../../src/gateway/crons/cron-scheduler.js";
import { type ServedGateway, startServedGateway } from "../e2e/helpers/served-gateway.js";

const YEARLY = "0 0 1 1 *";
const input = { messages: [{ role: "user", content: "scheduled hello" }] };

let gateway: ServedGateway;
let client: Client;

beforeAll(async () => {
  gateway = await startServedGateway({
    config: () => ({ crons: { poll_interval_seconds: 0, lease_seconds: 30 } }),
  });
  client = gateway.client();
});
afterAll(async () => {
  await gateway?.close();
});

function scheduler(): CronScheduler {
  const found = gateway.fawn.crons.scheduler;
  if (!found) throw new Error("the gateway attached no cron scheduler");
  return found;
}

function nextYearStart(after: Date): string {
  return new Date(Date.UTC(after.getUTCFullYear() + 1, 0, 1)).toISOString();
}

describe("crons over the SDK", () => {
  it("reports crons in /info", async () => {
    const info = (await (await fetch(`${gateway.apiUrl}/info`)).json()) as {
      flags: Record<string, boolean>;
    };
    expect(info.flags.crons).toBe(true);
  });

  it("fires a thread's cron once per tick, as runs the SDK lists", async () => {
    const thread = await client.threads.create();
    const before = new Date();
    const cron = await client.crons.createForThread(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      schedule: YEARLY,
      input,
      metadata: { owner: "sdk-test" },
      multitaskStrategy: "enqueue",
    });
    expect(cron).toMatchObject({
      thread_id: thread.thread_id,
      assistant_id: LEAD_AGENT_ASSISTANT_ID,
      schedule: YEARLY,
      metadata: { owner: "sdk-test" },
      next_run_date: nextYearStart(before),
    });
    const tick = new Date(cron.next_run_date);
    expect(await scheduler().tick(new Date(tick.getTime() - 1))).toEqual([]);
    const [fired, ...more] = await scheduler().tick(tick);
    expect(more).toEqual([]);
    expect(fired).toMatchObject({ cronId: cron.cron_id, advanced: true });
    // The same tick again, from a late poll: already fired.
    expect(await scheduler().tick(tick)).toEqual([]);
    const runs = await client.runs.list(thread.thread_id);
    expect(runs.map((run) => run.run_id)).toEqual([fired?.runId]);
    await client.runs.join(thread.thread_id, runs[0]?.run_id ?? "");
    const [stored] = await client.crons.search({ threadId: thread.thread_id });
    expect(stored?.next_run_date).toBe(nextYearStart(tick));
    // The next year's tick fires a second run.
    const second = await scheduler().tick(new Date(stored?.next_run_date ?? ""));
    expect(second).toHaveLength(1);
    expect(await client.runs.list(thread.thread_id)).toHaveLength(2);
    await client.runs.join(thread.thread_id, second[0]?.runId ?? "");
    await client.crons.delete(cron.cron_id);
  });

  it("runs a stateless cron on a new thread per firing, kept or deleted", async () => {
    const kept = await client.crons.create(LEAD_AGENT_ASSISTANT_ID, {
      schedule: YEARLY,
      input,
      onRunCompleted: "keep",
    });
    expect(kept.thread_id ?? null).toBeNull();
    const [firing] = await scheduler().tick(new Date(kept.next_run_date));
    if (!firing?.threadId || !firing.runId) throw new Error("the stateless cron did not fire");
    expect(await client.runs.list(firing.threadId)).toMatchObject([{ run_id: firing.runId }]);
    await client.runs.join(firing.threadId, firing.runId);
    expect((await client.threads.get(firing.threadId)).thread_id).toBe(firing.threadId);
    await client.crons.delete(kept.cron_id);

    const deleted = await client.crons.create(LEAD_AGENT_ASSISTANT_ID, { schedule: YEARLY, input });
    const [other] = await scheduler().tick(new Date(deleted.next_run_date));
    if (!other?.threadId || !other.runId) throw new Error("the stateless cron did not fire");
    expect(other.threadId).not.toBe(firing.threadId);
    await client.runs.join(other.threadId, other.runId);
    await client.crons.delete(deleted.cron_id);
  });

  it("searches, counts, updates and deletes the caller's crons", async () => {
    const thread = await client.threads.create();
    const a = await client.crons.createForThread(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      schedule: YEARLY,
      input,
      metadata: { team: "red" },
    });
    const b = await client.crons.create(LEAD_AGENT_ASSISTANT_ID, {
      schedule: "0 0 1 * *",
      input,
      metadata: { team: "blue" },
    });
    expect(await client.crons.count({ threadId: thread.thread_id })).toBe(1);
    expect(await client.crons.count({ metadata: { team: "blue" } })).toBe(1);
    const found = await client.crons.search({
      metadata: { team: "red" },
      select: ["cron_id", "schedule", "now"],
    });
    expect(found).toEqual([{ cron_id: a.cron_id, schedule: YEARLY, now: expect.any(String) }]);
    const sorted = await client.crons.search({
      assistantId: LEAD_AGENT_ASSISTANT_ID,
      sortBy: "created_at",
      sortOrder: "desc",
      limit: 2,
    });
    expect(sorted.map((cron) => cron.cron_id)).toEqual([b.cron_id, a.cron_id]);

    const updated = await client.crons.update(b.cron_id, {
      schedule: "0 12 * * *",
      timezone: "Europe/Paris",
      enabled: false,
      metadata: { team: "green" },
      input: { messages: [{ role: "user", content: "changed" }] },
    });
    expect(updated).toMatchObject({
      schedule: "0 12 * * *",
      timezone: "Europe/Paris",
      enabled: false,
      metadata: { team: "green" },
      payload: { input: { messages: [{ role: "user", content: "changed" }] } },
    });
    expect(updated.next_run_date).not.toBe(b.next_run_date);
    // Disabled: its tick is not fired.
    expect(await scheduler().tick(new Date(updated.next_run_date ?? ""))).toEqual([]);
    expect(await client.crons.search({ enabled: false })).toMatchObject([{ cron_id: b.cron_id }]);

    await client.crons.delete(a.cron_id);
    await client.crons.delete(b.cron_id);
    expect(await client.crons.count()).toBe(0);
    await expect(client.crons.delete(a.cron_id)).rejects.toMatchObject({ status: 404 });
    await expect(client.crons.update(a.cron_id, { enabled: true })).rejects.toMatchObject({
      status: 404,
    });
  });

  it("refuses bad schedules, zones and unknown threads or assistants", async () => {
    await expect(
      client.crons.create(LEAD_AGENT_ASSISTANT_ID, { schedule: "every minute" }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      client.crons.create(LEAD_AGENT_ASSISTANT_ID, { schedule: YEARLY, timezone: "Mars/Base" }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      client.crons.createForThread("no-such-thread", LEAD_AGENT_ASSISTANT_ID, { schedule: YEARLY }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      client.crons.create("no-such-assistant", { schedule: YEARLY }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("replays the run when a firing is retried after a failure between its steps", async () => {
    const thread = await client.threads.create();
    const cron = await client.crons.createForThread(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      schedule: YEARLY,
      input,
      multitaskStrategy: "enqueue",
    });
    const services = createGatewayServices(gatewayDepsOf(gateway.fawn));
    let failAfterRun = true;
    const faulty = new CronScheduler({
      store: gateway.fawn.crons.store,
      runs: services.runs,
      owner: "faulty-process",
      leaseSeconds: 30,
      maxFiringsPerTick: 10,
      pollIntervalMs: 0,
      logger: gateway.fawn.logger,
      afterStep: (step) => {
        if (step === "run_create" && failAfterRun) throw new Error("crash after run_create");
      },
    });
    const tick = new Date(cron.next_run_date);
    expect(await faulty.tick(tick)).toEqual([]);
    const [run] = await client.runs.list(thread.thread_id);
    if (!run) throw new Error("the first attempt created no run");
    // Within the lease nobody else fires it; after it, the retry replays the same run.
    expect(await scheduler().tick(new Date(tick.getTime() + 29_000))).toEqual([]);
    failAfterRun = false;
    const [retried] = await scheduler().tick(new Date(tick.getTime() + 31_000));
    expect(retried).toMatchObject({ runId: run.run_id, advanced: true });
    expect(await client.runs.list(thread.thread_id)).toHaveLength(1);
    await client.runs.join(thread.thread_id, run.run_id);
    await client.crons.delete(cron.cron_id);
  });
});
