/**
 * Threads through the unmodified LangGraph SDK Client over HTTP: create (idempotent, if_exists),
 * get, update, search, count, delete, state (get/update/at checkpoint) and history.
 */
import { access, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER_ID, FawnPaths } from "../../src/core/paths.js";
import { type GatewayHarness, startGatewayHarness } from "./helpers/gateway-harness.js";

let h: GatewayHarness;
let client: Client;

beforeAll(async () => {
  h = await startGatewayHarness();
  client = h.client;
});
afterAll(async () => {
  await h?.close();
});

async function runToEnd(threadId: string, text: string): Promise<void> {
  await client.runs.wait(threadId, "lead_agent", {
    input: { messages: [{ role: "user", content: text }] },
  });
}

describe("threads via the SDK", () => {
  it("creates, reads, updates and deletes a thread", async () => {
    const created = await client.threads.create({ metadata: { project: "alpha" } });
    expect(created.thread_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.status).toBe("idle");
    expect(created.metadata).toMatchObject({ project: "alpha" });

    const read = await client.threads.get(created.thread_id);
    expect(read.thread_id).toBe(created.thread_id);
    expect(read.values).toEqual({});

    const updated = await client.threads.update(created.thread_id, { metadata: { stage: "two" } });
    expect(updated.metadata).toMatchObject({ project: "alpha", stage: "two" });

    await client.threads.delete(created.thread_id);
    await expect(client.threads.get(created.thread_id)).rejects.toMatchObject({ status: 404 });
  });

  it("deletes the thread's folder (workspace, uploads, outputs) with the thread", async () => {
    const created = await client.threads.create();
    const paths = new FawnPaths(h.fawn.config.home);
    const scope = { threadId: created.thread_id, userId: DEFAULT_USER_ID };
    const dirs = await paths.ensureThreadDirs(scope);
    await writeFile(join(dirs.outputsDir, "report.md"), "# Report\n");
    await client.threads.delete(created.thread_id);
    await expect(access(paths.threadDir(scope))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("is idempotent by default and honours if_exists", async () => {
    const threadId = "fixed-thread-id-1";
    const first = await client.threads.create({ threadId, metadata: { n: 1 } });
    const again = await client.threads.create({ threadId, metadata: { n: 2 } });
    expect(again.thread_id).toBe(first.thread_id);
    expect(again.metadata).toMatchObject({ n: 1 });
    const same = await client.threads.create({ threadId, ifExists: "do_nothing" });
    expect(same.thread_id).toBe(threadId);
    await expect(client.threads.create({ threadId, ifExists: "raise" })).rejects.toMatchObject({
      status: 409,
    });
  });

  it("strips server-owned metadata keys", async () => {
    const thread = await client.threads.create({
      metadata: { user_id: "mallory", owner_id: "x", ok: true },
    });
    expect(thread.metadata).toEqual(expect.objectContaining({ ok: true }));
    expect(thread.metadata).not.toHaveProperty("user_id");
    expect(thread.metadata).not.toHaveProperty("owner_id");
  });

  it("searches and counts by metadata, ids and status with paging", async () => {
    const tag = `search-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await client.threads.create({ metadata: { tag, i } })).thread_id);
    }
    const all = await client.threads.search({ metadata: { tag }, limit: 10 });
    expect(all.map((t) => t.thread_id).sort()).toEqual([...ids].sort());
    const page = await client.threads.search({
      metadata: { tag },
      limit: 2,
      offset: 1,
      sortOrder: "asc",
    });
    expect(page).toHaveLength(2);
    const byIds = await client.threads.search({ ids: [ids[0] ?? "", ids[1] ?? "", "missing-id"] });
    expect(byIds.map((t) => t.thread_id).sort()).toEqual([ids[0], ids[1]].sort());
    expect(await client.threads.count({ metadata: { tag } })).toBe(5);
    expect(await client.threads.count({ metadata: { tag }, status: "busy" })).toBe(0);
    const selected = await client.threads.search({
      metadata: { tag },
      select: ["thread_id", "metadata"],
    });
    expect(Object.keys(selected[0] ?? {}).sort()).toEqual(["metadata", "thread_id"]);
  });

  it("reads state with LangGraph checkpoint objects after a run", async () => {
    const thread = await client.threads.create();
    const empty = await client.threads.getState(thread.thread_id);
    expect(empty.values).toEqual({});
    expect(empty.checkpoint).toBeNull();

    await runToEnd(thread.thread_id, "hello");
    const state = await client.threads.getState<{
      messages: Array<{ type: string; content: string }>;
    }>(thread.thread_id);
    expect(state.values.messages.map((m) => [m.type, m.content])).toEqual([
      ["human", "hello"],
      ["ai", "echo: hello"],
    ]);
    expect(state.next).toEqual([]);
    expect(state.checkpoint).toMatchObject({ thread_id: thread.thread_id, checkpoint_ns: "" });
    expect(typeof state.checkpoint.checkpoint_id).toBe("string");
    expect(state.parent_checkpoint?.checkpoint_id).toEqual(expect.any(String));
    expect(state.metadata).toMatchObject({ source: "loop" });

    const thread2 = await client.threads.get(thread.thread_id);
    expect(thread2.status).toBe("idle");
    expect(thread2.values).toHaveProperty("messages");
  });

  it("pages history newest first, with before as a config object or an id", async () => {
    const thread = await client.threads.create();
    await runToEnd(thread.thread_id, "one");
    await runToEnd(thread.thread_id, "two");
    const history = await client.threads.getHistory(thread.thread_id, { limit: 100 });
    expect(history.length).toBeGreaterThanOrEqual(6);
    const steps = history.map((s) => (s.metadata as { step: number }).step);
    expect([...steps].sort((a, b) => b - a)).toEqual(steps);
    for (const entry of history) expect(entry.checkpoint.thread_id).toBe(thread.thread_id);

    const second = history[1];
    if (!second) throw new Error("history too short");
    const older = await client.threads.getHistory(thread.thread_id, {
      limit: 2,
      before: { configurable: { checkpoint_id: second.checkpoint.checkpoint_id } },
    });
    expect(older.map((s) => s.checkpoint.checkpoint_id)).toEqual(
      history.slice(2, 4).map((s) => s.checkpoint.checkpoint_id),
    );
    const response = await fetch(`${h.apiUrl}/threads/${thread.thread_id}/history`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ limit: 1, before: second.checkpoint.checkpoint_id }),
    });
    const byId = (await response.json()) as Array<{ checkpoint_id: string }>;
    expect(byId.map((s) => s.checkpoint_id)).toEqual([history[2]?.checkpoint.checkpoint_id]);

    const at = await client.threads.getState(
      thread.thread_id,
      second.checkpoint.checkpoint_id ?? "",
    );
    expect(at.checkpoint.checkpoint_id).toBe(second.checkpoint.checkpoint_id);
    const atObject = await client.threads.getState(thread.thread_id, second.checkpoint);
    expect(atObject.checkpoint.checkpoint_id).toBe(second.checkpoint.checkpoint_id);
  });

  it("updates state: messages merge through the reducer, other keys overwrite", async () => {
    const thread = await client.threads.create();
    await runToEnd(thread.thread_id, "first");
    const result = await client.threads.updateState(thread.thread_id, {
      values: { messages: [{ role: "user", content: "added by hand" }] },
      asNode: "respond",
    });
    expect(result.configurable).toMatchObject({ thread_id: thread.thread_id });
    const state = await client.threads.getState<{ messages: Array<{ content: string }> }>(
      thread.thread_id,
    );
    expect(state.values.messages.map((m) => m.content)).toEqual([
      "first",
      "echo: first",
      "added by hand",
    ]);
    expect(state.metadata).toMatchObject({ source: "update" });

    await runToEnd(thread.thread_id, "after");
    const after = await client.threads.getState<{ messages: Array<{ content: string }> }>(
      thread.thread_id,
    );
    expect(after.values.messages.map((m) => m.content)).toEqual([
      "first",
      "echo: first",
      "added by hand",
      "after",
      "echo: after",
    ]);
  });
});

describe("assistants via the SDK", () => {
  it("lists, gets and describes the lead_agent assistant", async () => {
    const found = await client.assistants.search({ graphId: "lead_agent" });
    expect(found.map((a) => a.assistant_id)).toEqual(["lead_agent"]);
    expect(await client.assistants.search({ graphId: "other" })).toEqual([]);
    const assistant = await client.assistants.get("lead_agent");
    expect(assistant).toMatchObject({
      assistant_id: "lead_agent",
      graph_id: "lead_agent",
      version: 1,
    });
    const graph = await client.assistants.getGraph("lead_agent");
    expect(graph).toHaveProperty("nodes");
    expect(graph).toHaveProperty("edges");
    const schemas = await client.assistants.getSchemas("lead_agent");
    expect(schemas).toMatchObject({ graph_id: "lead_agent" });
    await expect(client.assistants.get("someone-else")).rejects.toMatchObject({ status: 404 });
    await expect(
      client.runs.create((await client.threads.create()).thread_id, "someone-else", {}),
    ).rejects.toMatchObject({ status: 404 });
  });
});
