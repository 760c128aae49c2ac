/**
 * Runs of served graphs through the real SDK `Client`: a compiled-in `interruptBefore` stops at
 * `tools` and a resume finishes; a run's own `interruptBefore` names any node of the graph; a
 * subgraph's `interrupt()` surfaces and resumes; a graph's own error class fails the run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER_ID } from "../../src/core/paths.js";
import { FIXTURE_LANGGRAPH_JSON, type ServedGraphs, serveGraphs } from "./helpers/serve-graphs.js";

interface Message {
  type?: string;
  content?: unknown;
}

// The same runs on the HTTP thread and in two execution worker threads (`runtime.workers`).
describe.each([0, 2])("runs of served graphs (runtime.workers: %i)", (workers) => {
  let server: ServedGraphs;

  beforeAll(async () => {
    server = await serveGraphs({ langgraphJson: FIXTURE_LANGGRAPH_JSON, workers });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("stops before the tools node the graph was compiled to stop at, then resumes", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "tool_agent", {
      input: { messages: [{ role: "user", content: "Weather in Paris?" }] },
    });
    const paused = await client.threads.getState(thread.thread_id);
    expect(paused.next).toEqual(["tools"]);
    // Resumed with messages-tuple: the chat model's message streams as `messages` events.
    const streamed: string[] = [];
    let values: { messages: Message[] } = { messages: [] };
    for await (const chunk of client.runs.stream(thread.thread_id, "tool_agent", {
      input: null,
      streamMode: ["messages-tuple", "values"],
    })) {
      if (chunk.event === "messages") {
        const [message] = chunk.data as [Message, unknown];
        if (message.type?.startsWith("ai")) streamed.push(String(message.content));
      }
      if (chunk.event === "values") values = chunk.data as { messages: Message[] };
    }
    expect(streamed.join("")).toBe("The tool says: It is sunny in Paris.");
    expect(values.messages.at(-1)?.content).toBe("The tool says: It is sunny in Paris.");
    expect((await client.threads.getState(thread.thread_id)).next).toEqual([]);
  });

  it("stops before any node a run names (nodes are the graph's, not the lead agent's)", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "nested", { input: {}, interruptBefore: ["middle"] });
    const paused = await client.threads.getState(thread.thread_id);
    expect(paused.next).toEqual(["middle"]);
    expect((paused.values as { parent?: string }).parent).toBe("parent_one");
  });

  it("surfaces a subgraph's interrupt() and resumes it with a Command", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const chunks: { event: string; data: unknown }[] = [];
    for await (const chunk of client.runs.stream(thread.thread_id, "nested", {
      input: {},
      streamMode: ["updates"],
      streamSubgraphs: true,
    })) {
      chunks.push(chunk);
    }
    const interrupted = chunks.find(
      (chunk) =>
        chunk.event.startsWith("updates") &&
        typeof chunk.data === "object" &&
        chunk.data !== null &&
        "__interrupt__" in chunk.data,
    );
    expect(interrupted).toBeDefined();
    const paused = await client.threads.getState(thread.thread_id);
    expect(paused.next).toEqual(["middle"]);
    expect(paused.tasks[0]?.interrupts[0]?.value).toEqual({ question: "Which one?" });

    const values = (await client.runs.wait(thread.thread_id, "nested", {
      command: { resume: "the second" },
    })) as { parent?: string; child?: string; answer?: string };
    expect(values).toMatchObject({
      parent: "parent_two",
      child: "child_two",
      answer: "the second",
    });
  });

  it("builds a factory graph from each run's config, stateless runs included", async () => {
    const client = server.client();
    const nodesOf = async (config?: { configurable: Record<string, unknown> }) => {
      const nodes: string[] = [];
      for await (const chunk of client.runs.stream(null, "dynamic", {
        input: {},
        streamMode: ["updates"],
        ...(config ? { config } : {}),
      })) {
        if (chunk.event === "updates") nodes.push(...Object.keys(chunk.data as object));
      }
      return nodes;
    };
    expect(await nodesOf()).toEqual(["default"]);
    expect(await nodesOf({ configurable: { nodeName: "runtime" } })).toEqual(["runtime"]);
  });

  it("writes a factory graph's thread state as the graph its assistant's config builds", async () => {
    const client = server.client();
    const assistant = await client.assistants.create({
      graphId: "dynamic",
      config: { configurable: { nodeName: "assistant" } },
    });
    const thread = await client.threads.create({ graphId: "dynamic" });
    await client.runs.wait(thread.thread_id, assistant.assistant_id, { input: {} });
    // `assistant` is a node only of the graph that config builds.
    await client.threads.updateState(thread.thread_id, {
      values: { visited: ["update"] },
      asNode: "assistant",
    });
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toMatchObject({ node: "assistant", visited: ["assistant", "update"] });
  });

  it("lets a graph call this server through an SDK Client given no apiUrl", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const values = (await client.runs.wait(thread.thread_id, "client_graph", { input: {} })) as {
      graphIds: string[];
    };
    expect(values.graphIds).toEqual(expect.arrayContaining(["lead_agent", "client_graph"]));
  });

  it("fails a run whose graph throws its own error class, naming it", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const errors: unknown[] = [];
    for await (const chunk of client.runs.stream(thread.thread_id, "error_graph", {
      input: { input: "now" },
    })) {
      if (chunk.event === "error") errors.push(chunk.data);
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ message: "Boom: now" });
    // The class name reaches the client (LangGraph's server sends it as `error`).
    expect(JSON.stringify(errors[0])).toContain("CustomGraphError");
    const [run] = await client.runs.list(thread.thread_id);
    expect(run?.status).toBe("error");
  });

  it("fails a run naming a graph the server does not serve, listing the ones it does", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    // The gateway refuses unknown assistants up front; a run admitted in-process still may name one.
    const record = await server.fawn.runs.submit({
      threadId: thread.thread_id,
      invocation: { input: {}, graph_id: "no_such_graph" },
      userId: DEFAULT_USER_ID,
    });
    const events: { event: string; data: unknown }[] = [];
    for await (const chunk of client.runs.joinStream(thread.thread_id, record.runId)) {
      events.push(chunk);
    }
    const error = events.find((chunk) => chunk.event === "error");
    expect(JSON.stringify(error?.data)).toContain('Graph \\"no_such_graph\\" is not served here');
    expect(JSON.stringify(error?.data)).toContain("lead_agent");
    expect((await client.runs.get(thread.thread_id, record.runId)).status).toBe("error");
  });
});
