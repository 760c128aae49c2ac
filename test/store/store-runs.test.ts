/**
 * A run's graph gets the server's store (`args.store` of the agent factory, compiled into the
 * graph as `config.store`): what it writes, the API reads, and what the API wrote, it reads.
 */

import { afterAll, beforeAll, expect, it } from "vitest";
import { ScopedGraphStore } from "../../src/ports/graph-store.js";
import {
  NOTE_KEY,
  NOTE_NAMESPACE,
  type StoreGateway,
  startStoreGateway,
} from "./helpers/store-gateway.js";

let gateway: StoreGateway;

beforeAll(async () => {
  gateway = await startStoreGateway();
});
afterAll(async () => {
  await gateway?.close();
});

it("hands each run the store, and the API reads what the run wrote", async () => {
  const client = gateway.client();
  const thread = await client.threads.create();
  const output = await client.runs.wait(thread.thread_id, "lead_agent", {
    input: { note: "hello" },
  });
  expect(output).toMatchObject({ note: "stored:hello" });
  expect(gateway.storesSeen).toHaveLength(1);
  expect(gateway.storesSeen[0]).toBeInstanceOf(ScopedGraphStore);
  const item = await client.store.getItem(NOTE_NAMESPACE, NOTE_KEY);
  expect(item?.value).toEqual({ note: "hello", thread_id: thread.thread_id });

  // The API overwrites it; the next run's graph reads the store it shares with the API.
  await client.store.putItem(NOTE_NAMESPACE, "from-api", { seen: true });
  const second = await client.threads.create();
  await client.runs.wait(second.thread_id, "lead_agent", { input: { note: "again" } });
  const store = gateway.storesSeen[1];
  expect(await store?.get(NOTE_NAMESPACE, "from-api")).toMatchObject({ value: { seen: true } });
  expect((await client.store.getItem(NOTE_NAMESPACE, NOTE_KEY))?.value).toEqual({
    note: "again",
    thread_id: second.thread_id,
  });
});
