/**
 * Graphs from a langgraph.json served beside the lead agent, driven with the real SDK `Client`:
 * each is a system assistant, runs stream and wait, the project's `http.app` answers first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_LANGGRAPH_JSON, type ServedGraphs, serveGraphs } from "./helpers/serve-graphs.js";

interface Message {
  type?: string;
  content?: unknown;
}

describe("graphs from a langgraph.json", () => {
  let server: ServedGraphs;

  beforeAll(async () => {
    server = await serveGraphs({ langgraphJson: FIXTURE_LANGGRAPH_JSON });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("lists each graph as an assistant beside the lead agent", async () => {
    const assistants = await server.client().assistants.search({ limit: 100 });
    const ids = assistants.map((assistant) => assistant.graph_id);
    expect(ids).toEqual(
      expect.arrayContaining([
        "lead_agent",
        "echo",
        "echo_uncompiled",
        "echo_factory",
        "tool_agent",
        "nested",
        "store_graph",
        "error_graph",
        "dynamic",
        "client_graph",
      ]),
    );
    const tool = assistants.find((assistant) => assistant.graph_id === "tool_agent");
    expect(tool?.description).toBe("Calls a weather tool.");
  });

  it.each(["echo", "echo_uncompiled", "echo_factory"])(
    "runs %s to completion with runs.wait",
    async (graphId) => {
      const client = server.client();
      const thread = await client.threads.create();
      const state = (await client.runs.wait(thread.thread_id, graphId, {
        input: { messages: [{ role: "user", content: "hello" }] },
        context: { prefix: "echo" },
      })) as { messages: Message[]; turns: number };
      expect(state.messages.map((m) => m.content)).toEqual(["hello", "echo: hello"]);
      expect(state.turns).toBe(1);
    },
  );

  it("streams values and updates of a run", async () => {
    const client = server.client();
    const thread = await client.threads.create();
    const events: string[] = [];
    let last: { messages?: Message[] } = {};
    for await (const part of client.runs.stream(thread.thread_id, "echo", {
      input: { messages: [{ role: "user", content: "streamed" }] },
      streamMode: ["values", "updates"],
      context: { prefix: "echo" },
    })) {
      events.push(part.event);
      if (part.event === "values") last = part.data as { messages?: Message[] };
    }
    expect(events).toContain("updates");
    expect(last.messages?.at(-1)?.content).toBe("echo: streamed");
    const state = await client.threads.getState(thread.thread_id);
    expect((state.values as { turns: number }).turns).toBe(1);
  });

  it("serves the project's http.app before Fawn's routes; its middleware sees Fawn's too", async () => {
    const custom = await fetch(`${server.url}/custom/hello`);
    expect(custom.status).toBe(200);
    expect(await custom.json()).toEqual({ hello: "world" });
    const info = await fetch(`${server.apiUrl}/info`);
    expect(info.status).toBe(200);
    expect(info.headers.get("x-custom-app")).toBe("seen");
    const missing = await fetch(`${server.apiUrl}/no-such-route`);
    expect(missing.status).toBe(404);
  });
});

describe("graphs from config.yaml graphs:", () => {
  let server: ServedGraphs;

  beforeAll(async () => {
    server = await serveGraphs({
      config: () => ({
        graphs: {
          config_echo: "./echo.ts:graph",
          described: { path: "./tool-agent.ts:graph", description: "From config.yaml." },
        },
      }),
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("serves them as assistants and runs them", async () => {
    const client = server.client();
    const assistants = await client.assistants.search();
    // Search orders by creation time; system assistants are written together at start.
    expect(assistants.map((a) => a.graph_id).sort()).toEqual([
      "config_echo",
      "described",
      "lead_agent",
    ]);
    const described = assistants.find((a) => a.graph_id === "described");
    expect(described?.description).toBe("From config.yaml.");
    const thread = await client.threads.create();
    const state = (await client.runs.wait(thread.thread_id, "config_echo", {
      input: { messages: [{ role: "user", content: "from config" }] },
    })) as { messages: Message[] };
    expect(state.messages.at(-1)?.content).toBe("echo: from config");
  });
});
