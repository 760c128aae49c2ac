/**
 * Copy of a lead-agent thread (state read from the checkpointer, no graph state access): the copy
 * reads like the original and diverges from it.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type GatewayHarness, startGatewayHarness } from "../gateway/helpers/gateway-harness.js";

let h: GatewayHarness;
let client: Client;

beforeAll(async () => {
  h = await startGatewayHarness({ database: "sqlite" });
  client = h.client;
});
afterAll(async () => {
  await h?.close();
});

it("copies a lead-agent thread: same state and history, then independent", async () => {
  const thread = await client.threads.create({ metadata: { project: "copy" } });
  await client.runs.wait(thread.thread_id, "lead_agent", {
    input: { messages: [{ role: "user", content: "first" }] },
  });
  const original = await client.threads.getState(thread.thread_id);
  const history = await client.threads.getHistory(thread.thread_id);

  const copy = await client.threads.copy(thread.thread_id);
  // The run stamped the thread's graph and assistant, as the platform does; the copy keeps them.
  expect(copy.metadata).toEqual({
    project: "copy",
    graph_id: "lead_agent",
    assistant_id: "lead_agent",
  });
  const copied = await client.threads.getState(copy.thread_id);
  expect(copied.values).toEqual(original.values);
  expect(copied.checkpoint.checkpoint_id).toBe(original.checkpoint.checkpoint_id);
  expect(copied.checkpoint.thread_id).toBe(copy.thread_id);
  const copiedHistory = await client.threads.getHistory(copy.thread_id);
  expect(copiedHistory.map((s) => s.checkpoint.checkpoint_id)).toEqual(
    history.map((s) => s.checkpoint.checkpoint_id),
  );

  await client.runs.wait(copy.thread_id, "lead_agent", {
    input: { messages: [{ role: "user", content: "second" }] },
  });
  expect(JSON.stringify((await client.threads.getState(copy.thread_id)).values)).toContain(
    "second",
  );
  expect(await client.threads.getState(thread.thread_id)).toEqual(original);
});
