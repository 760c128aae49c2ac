/**
 * `POST /internal/truncate`, the LangGraph dev server's reset that its own test suite calls
 * between tests: served only with `server.allow_truncate`, it deletes threads (with their runs
 * and checkpoints), user-created assistants and store items; system assistants stay.
 */

import { afterEach, expect, it } from "vitest";
import { type StoreGateway, startStoreGateway } from "../store/helpers/store-gateway.js";

let gateway: StoreGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function truncate(apiUrl: string, body: Record<string, boolean>): Promise<Response> {
  return fetch(`${apiUrl}/internal/truncate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

it("empties threads, runs, checkpoints, assistants and the store when enabled", async () => {
  gateway = await startStoreGateway({ config: { server: { allow_truncate: true } } });
  const client = gateway.client();
  const thread = await client.threads.create();
  await client.runs.wait(thread.thread_id, "lead_agent", { input: { note: "hi" } });
  const created = await client.assistants.create({ graphId: "lead_agent", name: "mine" });
  await client.store.putItem(["docs"], "a", { v: 1 });

  const response = await truncate(gateway.apiUrl, {
    runs: true,
    threads: true,
    assistants: true,
    store: true,
    checkpoint: true,
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ ok: true });

  expect(await client.threads.search()).toEqual([]);
  await expect(client.threads.get(thread.thread_id)).rejects.toThrow(/404|not found/i);
  await expect(client.assistants.get(created.assistant_id)).rejects.toThrow(/404|not found/i);
  const left = await client.assistants.search();
  expect(left.map((a) => a.graph_id)).toEqual(["lead_agent"]);
  expect(left[0]?.metadata).toMatchObject({ created_by: "system" });
  expect(await client.store.getItem(["docs"], "a")).toBeNull();
});

it("deletes only what the flags name", async () => {
  gateway = await startStoreGateway({ config: { server: { allow_truncate: true } } });
  const client = gateway.client();
  const thread = await client.threads.create();
  await client.store.putItem(["docs"], "a", { v: 1 });
  expect((await truncate(gateway.apiUrl, { store: true })).status).toBe(200);
  expect((await client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
  expect(await client.store.getItem(["docs"], "a")).toBeNull();
  expect((await truncate(gateway.apiUrl, { threads: "yes" } as never)).status).toBe(422);
});

it("is not served unless enabled", async () => {
  gateway = await startStoreGateway();
  const client = gateway.client();
  const thread = await client.threads.create();
  const response = await truncate(gateway.apiUrl, { threads: true });
  expect(response.status).toBe(404);
  expect((await client.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);
});
