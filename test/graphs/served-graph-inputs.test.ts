/**
 * What a served graph receives of its caller's run. Its input arrives exactly as sent (no
 * `messages` entry is turned into a message object). Without auth, it reads the `user_id` its caller puts in `configurable` (LangGraph's
 * servers pass it through, and graphs key their store data by it); the server's own user id is
 * the default. The lead agent never takes it from the caller (it keeps per-user folders under it).
 */

import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ServedGraphs, serveGraphs } from "./helpers/serve-graphs.js";

const IDENTITY_PROJECT = fileURLToPath(
  new URL("../fixtures/graphs/identity/langgraph.json", import.meta.url),
);

let served: ServedGraphs;
beforeAll(async () => {
  served = await serveGraphs({ langgraphJson: IDENTITY_PROJECT });
});
afterAll(async () => {
  await served?.close();
});

it("passes the caller's user_id to a served graph, else the server's", async () => {
  const client = served.client();
  const thread = await client.threads.create();
  const named = await client.runs.wait(thread.thread_id, "whoami", {
    input: {},
    config: { configurable: { user_id: "start_user_id" } },
  });
  expect(named).toEqual({ user: "start_user_id" });
  const unnamed = await client.runs.wait(thread.thread_id, "whoami", { input: {} });
  expect(unnamed).toEqual({ user: "default" });
});

it("hands a served graph its input unchanged", async () => {
  const client = served.client();
  const thread = await client.threads.create();
  const values = await client.runs.wait(thread.thread_id, "strings", {
    input: { messages: ["input"] },
  });
  expect(values).toEqual({ messages: ["input", "seen"] });
});
