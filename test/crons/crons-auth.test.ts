/**
 * Crons under real `auth.mode: local` (memory stores): each user sees, changes and deletes only
 * their own crons, cannot schedule on another's thread, and a firing runs as the cron's owner.
 */
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken, registerUser } from "../auth/helpers/http-session.js";
import { type GatewayHarness, startGatewayHarness } from "../gateway/helpers/gateway-harness.js";

const YEARLY = "0 0 1 1 *";
let h: GatewayHarness;
let alice: Client;
let bob: Client;

async function clientFor(email: string, password: string): Promise<Client> {
  const session = await registerUser(h.apiUrl, email, password);
  return new Client({
    apiUrl: h.apiUrl,
    apiKey: null,
    callerOptions: { maxRetries: 0 },
    defaultHeaders: { Authorization: `Bearer ${await createApiToken(h.apiUrl, session)}` },
  });
}

beforeAll(async () => {
  h = await startGatewayHarness({
    config: {
      auth: { mode: "local", allow_registration: true },
      crons: { poll_interval_seconds: 0 },
    },
  });
  alice = await clientFor("alice@example.org", "alice password");
  bob = await clientFor("bob@example.org", "bob password 1");
});
afterAll(async () => {
  await h?.close();
});

describe("crons are scoped to their owner", () => {
  it("hides, protects and fires a user's crons as that user", async () => {
    const thread = await alice.threads.create();
    const mine = await alice.crons.createForThread(thread.thread_id, "lead_agent", {
      schedule: YEARLY,
      input: { messages: [{ role: "user", content: "hi" }] },
    });
    const stateless = await alice.crons.create("lead_agent", { schedule: YEARLY });
    expect(await alice.crons.count()).toBe(2);
    expect(await bob.crons.count()).toBe(0);
    expect(await bob.crons.search()).toEqual([]);
    await expect(bob.crons.update(mine.cron_id, { enabled: false })).rejects.toMatchObject({
      status: 404,
    });
    await expect(bob.crons.delete(stateless.cron_id)).rejects.toMatchObject({ status: 404 });
    await expect(
      bob.crons.createForThread(thread.thread_id, "lead_agent", { schedule: YEARLY }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await alice.crons.count()).toBe(2);

    await alice.crons.delete(stateless.cron_id);
    const scheduler = h.fawn.crons.scheduler;
    if (!scheduler) throw new Error("no cron scheduler");
    const [fired] = await scheduler.tick(new Date(mine.next_run_date));
    expect(fired?.runId).toBeTruthy();
    expect((await alice.runs.list(thread.thread_id)).map((run) => run.run_id)).toEqual([
      fired?.runId,
    ]);
    await expect(bob.runs.list(thread.thread_id)).rejects.toMatchObject({ status: 404 });
    await alice.runs.join(thread.thread_id, fired?.runId ?? "");
  });
});
