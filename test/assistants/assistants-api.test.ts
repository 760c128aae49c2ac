/**
 * `/assistants…` through the unmodified LangGraph SDK against a served gateway: create, read,
 * update (versions), delete, search, count, versions, set latest, graph/schemas/subgraphs, the
 * served graphs' system assistants, and the platform's error answers.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformSystemAssistantId } from "../../src/gateway/assistants/system-assistants.js";
import {
  type AssistantsHarness,
  ECHO_DEFAULTS,
  startAssistantsHarness,
} from "./helpers/assistants-harness.js";

let h: AssistantsHarness;
let client: Client;

beforeAll(async () => {
  h = await startAssistantsHarness({ database: "sqlite" });
  client = h.client();
});
afterAll(async () => {
  await h?.close();
});

describe("assistants via the SDK", () => {
  it("creates, reads, updates and deletes an assistant", async () => {
    const config = { configurable: { model_name: "gpt" } };
    const created = await client.assistants.create({ graphId: "echo", config, description: "foo" });
    expect(created).toMatchObject({
      graph_id: "echo",
      config,
      context: {},
      metadata: {},
      description: "foo",
      name: "Untitled",
      version: 1,
    });
    expect(created.assistant_id).toMatch(/^[0-9a-f-]{36}$/);
    const updated = await client.assistants.update(created.assistant_id, {
      metadata: { name: "woof" },
      description: "bar",
    });
    expect(updated).toMatchObject({
      version: 2,
      config,
      metadata: { name: "woof" },
      description: "bar",
    });
    expect(await client.assistants.get(created.assistant_id)).toEqual(updated);
    await client.assistants.delete(created.assistant_id);
    await expect(client.assistants.get(created.assistant_id)).rejects.toThrow(
      /HTTP 404: .*Assistant not found/,
    );
  });

  it("keeps an id: 409 on raise, the existing assistant on do_nothing", async () => {
    const assistantId = crypto.randomUUID();
    await client.assistants.create({ graphId: "echo", assistantId, name: "first" });
    await expect(
      client.assistants.create({ graphId: "echo", assistantId, name: "second" }),
    ).rejects.toThrow(/HTTP 409: .*Assistant already exists/);
    const kept = await client.assistants.create({
      graphId: "echo",
      assistantId,
      name: "second",
      ifExists: "do_nothing",
    });
    expect(kept.name).toBe("first");
  });

  it("refuses an unknown graph and malformed bodies", async () => {
    await expect(client.assistants.create({ graphId: "nope" })).rejects.toThrow(
      /HTTP 404: .*Graph \\"nope\\" not found/,
    );
    const created = await client.assistants.create({ graphId: "echo" });
    await expect(
      client.assistants.update(created.assistant_id, { graphId: "nope" }),
    ).rejects.toMatchObject({
      status: 404,
    });
    const response = await fetch(`${h.apiUrl}/assistants`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ graph_id: "echo", config: "not an object" }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toHaveProperty("detail");
  });

  it("lists versions newest first, filters them, and moves the one in use", async () => {
    const { assistant_id: id } = await client.assistants.create({ graphId: "echo" });
    expect(await client.assistants.getVersions(id)).toMatchObject([{ version: 1 }]);
    await client.assistants.update(id, { config: { configurable: { foo: "bar" } } });
    expect(await client.assistants.getVersions(id)).toMatchObject([
      { version: 2, config: { configurable: { foo: "bar" } } },
      { version: 1, config: {} },
    ]);
    expect(await client.assistants.getVersions(id, { limit: 1 })).toMatchObject([{ version: 2 }]);
    expect(await client.assistants.getVersions(id, { offset: 1 })).toMatchObject([{ version: 1 }]);
    await client.assistants.update(id, { metadata: { foo: "baz" } });
    expect(await client.assistants.getVersions(id, { metadata: { foo: "baz" } })).toMatchObject([
      { version: 3 },
    ]);
    await client.assistants.update(id, {});
    expect((await client.assistants.getVersions(id)).map((v) => v.version)).toEqual([4, 3, 2, 1]);

    const back = await client.assistants.setLatest(id, 1);
    expect(back).toMatchObject({ version: 1, config: {}, metadata: {} });
    expect((await client.assistants.update(id, {})).version).toBe(5);
    await expect(client.assistants.setLatest(id, 9)).rejects.toThrow(
      /HTTP 404: .*version not found/,
    );

    await client.assistants.delete(id);
    await expect(client.assistants.getVersions(id)).rejects.toThrow("HTTP 404");
  });

  it("searches by graph, name and metadata with paging, select and counts", async () => {
    const tag = crypto.randomUUID();
    const a = await client.assistants.create({
      graphId: "echo",
      name: "SIMPLE_runtime",
      metadata: { tag },
    });
    const b = await client.assistants.create({
      graphId: "echo",
      name: "other",
      metadata: { tag, team: { id: 1 } },
    });
    const byTag = await client.assistants.search({ metadata: { tag } });
    expect(byTag.map((x) => x.assistant_id)).toEqual([b.assistant_id, a.assistant_id]);
    expect(
      (await client.assistants.search({ metadata: { tag }, sortBy: "name", sortOrder: "asc" })).map(
        (x) => x.name,
      ),
    ).toEqual(["SIMPLE_runtime", "other"]);
    expect(
      (await client.assistants.search({ name: "PLE_run" })).map((x) => x.assistant_id),
    ).toEqual([a.assistant_id]);
    expect(
      (await client.assistants.search({ metadata: { team: { id: 1 } } })).map((x) => x.name),
    ).toEqual(["other"]);
    const page = await client.assistants.search({
      metadata: { tag },
      limit: 1,
      includePagination: true,
    });
    expect(page.assistants).toHaveLength(1);
    expect(page.next).toBe("1");
    const selected = await client.assistants.search({
      metadata: { tag },
      select: ["assistant_id", "name"],
    });
    expect(Object.keys(selected[0] ?? {}).sort()).toEqual(["assistant_id", "name"]);
    expect(await client.assistants.count({ metadata: { tag } })).toBe(2);
    expect(
      await client.assistants.count({ graphId: "echo", name: "SIMPLE_" }),
    ).toBeGreaterThanOrEqual(1);
    const echoes = await client.assistants.search({ graphId: "echo", limit: 100 });
    expect(echoes.every((x) => x.graph_id === "echo")).toBe(true);
  });

  it("has one system assistant per served graph, with the graph's defaults", async () => {
    const system = await client.assistants.search({
      metadata: { created_by: "system" },
      sortBy: "assistant_id",
      sortOrder: "asc",
    });
    expect(system.map((x) => x.assistant_id)).toEqual(["echo", "lead_agent"]);
    const echo = await client.assistants.get("echo");
    expect(echo).toMatchObject({ graph_id: "echo", name: "echo", version: 1, ...ECHO_DEFAULTS });
    // The platform's id for the system assistant (uuid5 of the graph id) names the same one.
    expect(await client.assistants.get(platformSystemAssistantId("echo"))).toEqual(echo);
    expect(await client.assistants.count()).toBeGreaterThanOrEqual(2);
  });

  it("describes an assistant's graph: drawing, schemas, subgraphs", async () => {
    const { assistant_id: id } = await client.assistants.create({ graphId: "echo" });
    expect(await client.assistants.getGraph(id, { xray: true })).toEqual({ nodes: [], edges: [] });
    expect(await client.assistants.getSchemas(id)).toMatchObject({ graph_id: "echo" });
    expect(await client.assistants.getSubgraphs(id, { recurse: true })).toEqual({});
    expect(await client.assistants.getSubgraphs(id, { namespace: "child" })).toEqual({});
    await expect(client.assistants.getGraph(crypto.randomUUID())).rejects.toMatchObject({
      status: 404,
    });
  });

  it("deletes the assistant's threads when asked", async () => {
    const { assistant_id: id } = await client.assistants.create({ graphId: "echo" });
    const thread = await client.threads.create({ metadata: { assistant_id: id } });
    const other = await client.threads.create({ metadata: { assistant_id: "someone-else" } });
    await client.assistants.delete(id, { deleteThreads: true });
    await expect(client.assistants.get(id)).rejects.toMatchObject({ status: 404 });
    await expect(client.threads.get(thread.thread_id)).rejects.toMatchObject({ status: 404 });
    expect((await client.threads.get(other.thread_id)).thread_id).toBe(other.thread_id);
  });
});
