/**
 * The LangGraph API at the server's root, as `langgraph dev` and the platform serve it: an SDK
 * given the bare server address works, next to `/api`. The workspace's pages and `/health` are
 * not behind the API's middlewares (auth, body limit).
 */

import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FIXTURE_LANGGRAPH_JSON, type ServedGraphs, serveGraphs } from "./helpers/serve-graphs.js";

let served: ServedGraphs;
beforeAll(async () => {
  served = await serveGraphs({ langgraphJson: FIXTURE_LANGGRAPH_JSON });
});
afterAll(async () => {
  await served?.close();
});

it("answers the SDK at the bare server address", async () => {
  const client = new Client({ apiUrl: served.url });
  const assistants = await client.assistants.search({ graphId: "echo" });
  expect(assistants.map((a) => a.assistant_id)).toEqual(["echo"]);
  const thread = await client.threads.create();
  const state = (await client.runs.wait(thread.thread_id, "echo", {
    input: { messages: [{ role: "user", content: "at the root" }] },
  })) as { messages: { content: unknown }[] };
  expect(state.messages.length).toBeGreaterThan(1);
  // The same thread through `/api`: one server, two addresses.
  const viaApi = await served.client().threads.getState(thread.thread_id);
  expect(viaApi.values).toEqual(state);
  const info = await fetch(`${served.url}/info`);
  expect(await info.json()).toMatchObject({ name: "fawn" });
});

it("answers unknown API paths at the root with the JSON 404", async () => {
  const response = await fetch(`${served.url}/threads/nope/not-a-route`, { method: "POST" });
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ code: "not_found" });
  expect((await fetch(`${served.url}/health`)).status).toBe(200);
});

it("hands Fawn a body a custom middleware already read", async () => {
  const client = new Client({ apiUrl: served.url });
  const thread = await client.threads.create();
  const state = (await client.runs.wait(thread.thread_id, "echo", {
    input: { messages: [{ role: "user", content: "read twice" }] },
    metadata: { tag: "kept" },
  })) as { messages: { content: unknown }[] };
  expect(state.messages.at(-1)?.content).toContain("read twice");
  const seen = (await (await fetch(`${served.url}/custom/last-run-body`)).json()) as {
    last: { metadata?: unknown };
  };
  expect(seen.last.metadata).toEqual({ tag: "kept" });
  const [run] = await client.runs.list(thread.thread_id);
  expect(run?.metadata).toMatchObject({ tag: "kept" });
});

it("posts a webhook given as a path to this server", async () => {
  const client = new Client({ apiUrl: served.url });
  const thread = await client.threads.create();
  const run = await client.runs.create(thread.thread_id, "echo", {
    input: { messages: [{ role: "user", content: "hook me" }] },
    webhook: "/custom/webhook",
  });
  await client.runs.join(thread.thread_id, run.run_id);
  // The webhook is posted after the run ends: wait for it through the route that recorded it.
  for (;;) {
    const { last } = (await (await fetch(`${served.url}/custom/webhook`)).json()) as {
      last: { run_id?: string; status?: string } | null;
    };
    if (last?.run_id === run.run_id) {
      expect(last.status).toBe("success");
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});
