/**
 * Under `auth.mode: local` every user has a store of their own: the API and their runs' graphs
 * see only their items, with namespaces as they wrote them (the scope is invisible).
 */
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiToken, registerUser } from "../auth/helpers/http-session.js";
import {
  NOTE_KEY,
  NOTE_NAMESPACE,
  type StoreGateway,
  startStoreGateway,
} from "./helpers/store-gateway.js";

let gateway: StoreGateway;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  gateway = await startStoreGateway({
    config: { auth: { mode: "local", allow_registration: true } },
  });
  const clientOf = async (email: string, password: string) => {
    const session = await registerUser(gateway.apiUrl, email, password);
    const token = await createApiToken(gateway.apiUrl, session);
    return gateway.client({ Authorization: `Bearer ${token}` });
  };
  alice = await clientOf("alice@example.org", "alice password");
  bob = await clientOf("bob@example.org", "bob password 1");
});
afterAll(async () => {
  await gateway?.close();
});

it("keeps each user's items, namespaces and run writes to that user", async () => {
  await alice.store.putItem(["profile"], "name", { name: "Alice" });
  expect(await bob.store.getItem(["profile"], "name")).toBeNull();
  expect((await bob.store.searchItems([])).items).toEqual([]);
  expect((await bob.store.listNamespaces()).namespaces).toEqual([]);

  await bob.store.putItem(["profile"], "name", { name: "Bob" });
  await bob.store.deleteItem(["profile"], "name");
  const own = await alice.store.getItem(["profile"], "name");
  expect(own).toMatchObject({ namespace: ["profile"], value: { name: "Alice" } });
  expect((await alice.store.listNamespaces()).namespaces).toEqual([["profile"]]);

  // A run of Alice's writes into Alice's store only.
  const thread = await alice.threads.create();
  await alice.runs.wait(thread.thread_id, "lead_agent", { input: { note: "alice's run" } });
  expect((await alice.store.getItem(NOTE_NAMESPACE, NOTE_KEY))?.value).toMatchObject({
    note: "alice's run",
  });
  expect(await bob.store.getItem(NOTE_NAMESPACE, NOTE_KEY)).toBeNull();
  expect((await bob.store.searchItems(NOTE_NAMESPACE)).items).toEqual([]);
});

it("refuses the store to a caller without credentials", async () => {
  const anonymous = new Client({
    apiUrl: gateway.apiUrl,
    apiKey: null,
    callerOptions: { maxRetries: 0 },
  });
  await expect(anonymous.store.getItem(["profile"], "name")).rejects.toThrow(/401/);
});
