/**
 * A drain without peers (SQLite, the in-process bridge): `Fawn.drain()` refuses new runs with
 * 503 `server_draining` and hands nothing off; the run still going at the deadline is left for
 * `close()` (its run shutdown step), which interrupts it, as before.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type ServedGateway, startServedGateway } from "../e2e/helpers/served-gateway.js";

let served: ServedGateway;

beforeAll(async () => {
  served = await startServedGateway({
    config: (home) => ({
      sandbox: { use: "local" },
      models: [{ name: "scripted", use: "scripted", model: "s", script: join(home, "s.yaml") }],
    }),
  });
  await writeFile(join(served.home, "s.yaml"), stringify([{ hang: true }]));
}, 60_000);

afterAll(async () => {
  await served?.close();
});

describe("drain with no peer to take runs", () => {
  it("refuses new runs, hands nothing off, and close() interrupts what is left", async () => {
    const client = served.client();
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "lead_agent", {
      input: { messages: [{ role: "user", content: "hang" }] },
    });
    const outcome = await served.fawn.drain({ timeoutMs: 300 });
    expect(outcome).toEqual({ finished: 0, handedOff: [] });

    const other = await client.threads.create();
    const refused = await fetch(`${served.apiUrl}/threads/${other.thread_id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "lead_agent", input: { messages: [] } }),
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: "server_draining" });
    expect((await fetch(`${served.url}/health/ready`)).status).toBe(503);

    // What close() does first (runs interrupted and finalized, bounded); stores stay open here.
    await served.fawn.manager.shutdown({ timeoutMs: 5000 });
    const row = await served.fawn.stores.runs.get(run.run_id);
    expect(row?.status).toBe("interrupted");
  }, 60_000);
});
