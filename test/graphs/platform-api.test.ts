/**
 * The LangGraph Platform API over graphs served from a `langgraph.json`, through the unmodified
 * SDK: assistants (CRUD, versions, latest), thread copy and supersteps, the store a graph shares
 * with `/store`, crons fired by an explicit tick, every stream mode, and a static breakpoint
 * leaving the thread `interrupted` until resumed. (Interrupts inside subgraphs and error classes:
 * graph-runs.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CronScheduler } from "../../src/gateway/crons/cron-scheduler.js";
import { FIXTURE_LANGGRAPH_JSON, type ServedGraphs, serveGraphs } from "./helpers/serve-graphs.js";

const say = (content: string) => ({ messages: [{ role: "user", content }] });
const YEARLY = "0 0 1 1 *";

let server: ServedGraphs;
beforeAll(async () => {
  server = await serveGraphs({
    langgraphJson: FIXTURE_LANGGRAPH_JSON,
    // Polling off: the test fires crons by calling the scheduler's tick with a time of its own.
    config: () => ({ crons: { poll_interval_seconds: 0 } }),
  });
});
afterAll(async () => {
  await server?.close();
});

function scheduler(): CronScheduler {
  const found = server.fawn.crons.scheduler;
  if (!found) throw new Error("no cron scheduler attached");
  return found;
}

describe("assistants of a served graph", () => {
  it("creates, versions, sets latest, searches, counts and deletes", async () => {
    const client = server.client();
    const created = await client.assistants.create({
      graphId: "echo",
      name: "loud",
      context: { prefix: "LOUD" },
      metadata: { team: "a" },
    });
    expect(created).toMatchObject({ graph_id: "echo", version: 1, name: "loud" });
    const updated = await client.assistants.update(created.assistant_id, {
      context: { prefix: "QUIET" },
    });
    expect(updated.version).toBe(2);
    const versions = await client.assistants.getVersions(created.assistant_id);
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);

    const thread = await client.threads.create();
    const quiet = (await client.runs.wait(thread.thread_id, created.assistant_id, {
      input: say("hi"),
    })) as { messages: { content: unknown }[] };
    expect(quiet.messages.at(-1)?.content).toBe("QUIET: hi");
    await client.assistants.setLatest(created.assistant_id, 1);
    const loud = (await client.runs.wait(thread.thread_id, created.assistant_id, {
      input: say("again"),
    })) as { messages: { content: unknown }[] };
    expect(loud.messages.at(-1)?.content).toBe("LOUD: again");

    const found = await client.assistants.search({ graphId: "echo", metadata: { team: "a" } });
    expect(found.map((a) => a.assistant_id)).toEqual([created.assistant_id]);
    expect(await client.assistants.count({ graphId: "echo" })).toBe(2);
    await client.assistants.delete(created.assistant_id);
    await expect(client.assistants.get(created.assistant_id)).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("threads of a served graph", () => {
  it("copies a thread with its history; builds one from supersteps", async () => {
    const client = server.client();
    const thread = await client.threads.create({ metadata: { kind: "original" } });
    await client.runs.wait(thread.thread_id, "echo", { input: say("one") });
    const copy = await client.threads.copy(thread.thread_id);
    expect(copy.metadata).toMatchObject({ kind: "original", graph_id: "echo" });
    const [original, copied] = await Promise.all([
      client.threads.getHistory(thread.thread_id),
      client.threads.getHistory(copy.thread_id),
    ]);
    expect(copied.map((s) => s.values)).toEqual(original.map((s) => s.values));
    await client.runs.wait(copy.thread_id, "echo", { input: say("two") });
    const after = await client.threads.getState(thread.thread_id);
    expect((after.values as { turns: number }).turns).toBe(1);

    const built = await client.threads.create({
      graphId: "echo",
      supersteps: [
        { updates: [{ values: say("typed"), asNode: "__input__" }] },
        { updates: [{ values: {}, asNode: "__start__" }] },
      ],
    });
    const state = await client.threads.getState(built.thread_id);
    expect(state.next).toEqual(["echo"]);
  });
});

describe("history of a served graph", () => {
  it("carries each run's metadata in its checkpoints, so history filters by it", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "echo", { input: say("untagged") });
    await client.runs.wait(thread.thread_id, "echo", {
      input: say("tagged"),
      metadata: { batch: "b-7" },
    });
    const all = await client.threads.getHistory(thread.thread_id);
    const tagged = await client.threads.getHistory(thread.thread_id, {
      metadata: { batch: "b-7" },
    });
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.length).toBeLessThan(all.length);
    for (const state of tagged) expect(state.metadata).toMatchObject({ batch: "b-7" });
  });
});

describe("the store of a served graph", () => {
  it("is the store the API reads and writes", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const first = await client.runs.wait(thread.thread_id, "store_graph", {
      input: { note: "remember me" },
    });
    expect(first).toMatchObject({ hasStore: true, seen: null });
    const item = await client.store.getItem(["notes"], "last");
    expect(item?.value).toEqual({ text: "remember me" });
    await client.store.putItem(["notes"], "last", { text: "from the API" });
    const second = await client.runs.wait(thread.thread_id, "store_graph", {
      input: { note: "next" },
    });
    expect(second).toMatchObject({ seen: "from the API" });
  });
});

describe("crons of a served graph", () => {
  it("fires once per tick of the given clock", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const cron = await client.crons.createForThread(thread.thread_id, "echo", {
      schedule: YEARLY,
      input: say("scheduled"),
    });
    const tick = new Date(cron.next_run_date);
    const [fired, ...more] = await scheduler().tick(tick);
    expect(more).toEqual([]);
    expect(await scheduler().tick(tick)).toEqual([]);
    await client.runs.join(thread.thread_id, fired?.runId ?? "");
    const state = await client.threads.getState(thread.thread_id);
    const messages = (state.values as { messages: { content: unknown }[] }).messages;
    expect(messages.at(-1)?.content).toBe("said: scheduled");
    await client.crons.delete(cron.cron_id);
  });
});

describe("streams of a served graph", () => {
  it("streams every mode the SDK offers", async () => {
    const client = server.client();
    const modes = [
      "values",
      "updates",
      "messages",
      "messages-tuple",
      "events",
      "debug",
      "custom",
      "tasks",
      "checkpoints",
    ] as const;
    const thread = await client.threads.create();
    const seen = new Set<string>();
    for await (const chunk of client.runs.stream(thread.thread_id, "echo", {
      input: say("all modes"),
      streamMode: [...modes],
    })) {
      seen.add(chunk.event.split("/")[0] ?? chunk.event);
    }
    for (const event of ["metadata", "values", "updates", "messages", "events", "debug"]) {
      expect(seen).toContain(event);
    }
    for (const event of ["tasks", "checkpoints"]) expect(seen).toContain(event);
    expect(seen).not.toContain("error");
    expect(seen).not.toContain("end");
  });

  it("leaves a thread interrupted at a static breakpoint until resumed", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "tool_agent", {
      input: say("Weather in Paris?"),
    });
    await client.runs.join(thread.thread_id, run.run_id);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    expect((await client.threads.get(thread.thread_id)).status).toBe("interrupted");
    await client.runs.wait(thread.thread_id, "tool_agent", { input: null });
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });
});
