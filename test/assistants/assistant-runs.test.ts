/**
 * Runs through an assistant: the graph it names is the one built, its config and context reach
 * the graph under the run's own (the run wins), the run row carries the assistant's id, the
 * thread's metadata records graph and assistant, and the host-only graph id never shows.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { say } from "../gateway/helpers/sdk-stream.js";
import { type AssistantsHarness, startAssistantsHarness } from "./helpers/assistants-harness.js";

let h: AssistantsHarness;
let client: Client;

beforeAll(async () => {
  h = await startAssistantsHarness();
  client = h.client();
});
afterAll(async () => {
  await h?.close();
});

/** What the factory was given for the latest run. */
function lastBuild() {
  const build = h.builds.at(-1);
  if (!build) throw new Error("no run was built");
  const config = build.config as {
    configurable?: Record<string, unknown>;
    context?: Record<string, unknown>;
    tags?: string[];
    recursionLimit?: number;
  };
  return { graphId: build.graphId, ...config };
}

describe("runs of an assistant", () => {
  it("run with a created assistant's graph, config and context; the run's values win", async () => {
    const assistant = await client.assistants.create({
      graphId: "echo",
      config: {
        configurable: { model_name: "assistant-model", temperature: 0.1, user_id: "spoofed" },
        tags: ["assistant-tag"],
        recursion_limit: 7,
      },
      context: { tz: "Europe/Paris", locale: "fr" },
    });
    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, assistant.assistant_id, {
      input: say("hi"),
      config: { configurable: { temperature: 0.9 } },
      context: { locale: "en" },
    });
    expect(values).toMatchObject({ messages: [{}, { content: "echo: hi" }] });
    const build = lastBuild();
    expect(build.graphId).toBe("echo");
    expect(build.configurable).toMatchObject({
      model_name: "assistant-model",
      temperature: 0.9,
      // Without auth a served graph reads the user_id its caller (here: the assistant) names,
      // as on LangGraph's servers; the thread is always the server's.
      user_id: "spoofed",
      thread_id: thread.thread_id,
    });
    expect(build.context).toMatchObject({ tz: "Europe/Paris", locale: "en" });
    expect(build.tags).toEqual(expect.arrayContaining(["assistant-tag"]));
    expect(build.recursionLimit).toBe(7);

    const [run] = await client.runs.list(thread.thread_id);
    expect(run?.assistant_id).toBe(assistant.assistant_id);
    expect(run).toHaveProperty("kwargs.config");
    expect(run).not.toHaveProperty("kwargs.graph_id");
    const stored = await client.threads.get(thread.thread_id);
    expect(stored.metadata).toMatchObject({
      graph_id: "echo",
      assistant_id: assistant.assistant_id,
    });
  });

  it("run an updated assistant's newest config, or the version set as latest", async () => {
    const assistant = await client.assistants.create({
      graphId: "echo",
      config: { configurable: { model_name: "v1" } },
    });
    await client.assistants.update(assistant.assistant_id, {
      config: { configurable: { model_name: "v2" } },
    });
    await client.runs.wait(null, assistant.assistant_id, { input: say("a") });
    expect(lastBuild().configurable?.model_name).toBe("v2");
    await client.assistants.setLatest(assistant.assistant_id, 1);
    await client.runs.wait(null, assistant.assistant_id, { input: say("b") });
    expect(lastBuild().configurable?.model_name).toBe("v1");
  });

  it("a graph id names the graph's system assistant, with its defaults", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "echo", { input: say("x") });
    const build = lastBuild();
    expect(build.graphId).toBe("echo");
    expect(build.configurable?.model_name).toBe("openai");
    expect(build.context).toMatchObject({ tz: "UTC" });
    expect((await client.threads.get(thread.thread_id)).metadata).toMatchObject({
      graph_id: "echo",
      assistant_id: "echo",
    });
    // lead_agent keeps working as before, on the same thread.
    await client.runs.wait(thread.thread_id, "lead_agent", { input: say("y") });
    expect(lastBuild().graphId).toBe("lead_agent");
    const runs = await client.runs.list(thread.thread_id);
    expect(runs.map((r) => r.assistant_id).sort()).toEqual(["echo", "lead_agent"]);
    expect((await client.threads.get(thread.thread_id)).metadata).toMatchObject({
      graph_id: "lead_agent",
      assistant_id: "lead_agent",
    });
  });

  it("refuses a run naming no assistant and no graph, before creating anything", async () => {
    const thread = await client.threads.create();
    await expect(
      client.runs.wait(thread.thread_id, "non-existent", { input: say("x") }),
    ).rejects.toThrow(/No assistant found for/);
    const stream = client.runs.stream(thread.thread_id, "non-existent", { input: say("x") });
    await expect(
      (async () => {
        for await (const _ of stream) {
          // drain
        }
      })(),
    ).rejects.toThrow(/No assistant found for/);
    expect(await client.runs.list(thread.thread_id)).toEqual([]);
  });

  it("a deleted assistant can no longer run; a deleted system assistant's graph still can", async () => {
    const assistant = await client.assistants.create({ graphId: "echo" });
    await client.assistants.delete(assistant.assistant_id);
    await expect(
      client.runs.wait(null, assistant.assistant_id, { input: say("x") }),
    ).rejects.toMatchObject({ status: 404 });
    await client.assistants.delete("echo");
    await client.runs.wait(null, "echo", { input: say("x") });
    expect(lastBuild()).toMatchObject({ graphId: "echo", configurable: { model_name: "openai" } });
  });
});
