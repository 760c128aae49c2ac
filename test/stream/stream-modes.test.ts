/**
 * Every stream mode the SDK offers, through the unmodified SDK `Client` against a served gateway
 * running small LangGraph.js graphs: event names and payloads in the platform's shape, `metadata`
 * first with its id, and no trailing chunk after the run's last event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testGraph } from "./helpers/graphs.js";
import {
  collect,
  graph,
  type Part,
  type StreamGateway,
  say,
  startStreamGateway,
} from "./helpers/stream-gateway.js";

let g: StreamGateway;

beforeAll(async () => {
  g = await startStreamGateway(testGraph);
});
afterAll(async () => {
  await g?.close();
});

async function streamRun(
  modes: string[],
  options: { graphName?: string; input?: unknown; subgraphs?: boolean } = {},
): Promise<{ threadId: string; parts: Part[] }> {
  const thread = await g.client.threads.create();
  const parts = await collect(
    g.client.runs.stream(thread.thread_id, "lead_agent", {
      input: (options.input ?? say("hi")) as Record<string, unknown>,
      streamMode: modes as never,
      config: graph(options.graphName ?? "chat"),
      ...(options.subgraphs ? { streamSubgraphs: true } : {}),
    }),
  );
  return { threadId: thread.thread_id, parts };
}

const names = (parts: Part[]) => new Set(parts.map((p) => p.event));

describe("the stream's frame", () => {
  it("starts with metadata {run_id, attempt} and ends with the run's last event", async () => {
    const thread = await g.client.threads.create();
    let runId = "";
    const parts = await collect(
      g.client.runs.stream(thread.thread_id, "lead_agent", {
        input: say("hi"),
        config: graph("chat"),
        onRunCreated: (meta) => {
          runId = meta.run_id;
        },
      }),
    );
    expect(parts[0]).toMatchObject({ event: "metadata", data: { run_id: runId, attempt: 1 } });
    expect(parts[0]?.id).toEqual(expect.any(String));
    expect(parts.at(-1)?.event).toBe("values");
    expect(names(parts)).toEqual(new Set(["metadata", "values"]));
  });

  it("a join from the start replays the same chunks, ids included", async () => {
    const thread = await g.client.threads.create();
    let runId = "";
    const live = await collect(
      g.client.runs.stream(thread.thread_id, "lead_agent", {
        input: say("hi"),
        streamMode: ["values", "updates"],
        config: graph("chat"),
        onRunCreated: (meta) => {
          runId = meta.run_id;
        },
      }),
    );
    const replay = await collect(
      g.client.runs.joinStream(thread.thread_id, runId, { lastEventId: "-1" }),
    );
    expect(replay).toEqual(live);
  });
});

describe("stream modes", () => {
  it("messages: messages/metadata, messages/partial growing to the complete message", async () => {
    const { parts } = await streamRun(["messages"]);
    expect(names(parts)).toEqual(
      new Set(["metadata", "messages/metadata", "messages/partial", "messages/complete"]),
    );
    const partial = parts
      .filter((p) => p.event === "messages/partial")
      .map((p) => (p.data as Array<{ content: string; id: string }>)[0]);
    expect(partial.map((m) => m?.content)).toEqual(["h", "he", "hel", "hell", "hello"]);
    const complete = parts
      .filter((p) => p.event === "messages/complete")
      .flatMap((p) => p.data as Array<{ content: string; id: string; type: string }>);
    expect(complete.map((m) => [m.type, m.content])).toEqual([
      ["human", "hi"],
      ["ai", "hello"],
      ["ai", "echoed"],
    ]);
    // The streamed message and the complete one are the same message.
    expect(complete[1]?.id).toBe(partial[0]?.id);
    const metadata = parts.find((p) => p.event === "messages/metadata")?.data as Record<
      string,
      { metadata: Record<string, unknown> }
    >;
    expect(metadata[partial[0]?.id ?? ""]?.metadata).toMatchObject({ langgraph_node: "agent" });
    expect(parts.at(-1)?.event).toBe("messages/complete");
  });

  it("messages with values: both, the values once per step", async () => {
    const { parts } = await streamRun(["messages", "values"]);
    expect(names(parts)).toEqual(
      new Set(["metadata", "messages/metadata", "messages/partial", "messages/complete", "values"]),
    );
    // A step's `messages/complete` follows the `values` chunk it is read from, as on the platform.
    expect(parts.at(-1)?.event).toBe("messages/complete");
    expect(parts.at(-2)?.event).toBe("values");
    const last = parts.filter((p) => p.event === "values").at(-1)?.data as {
      messages: unknown[];
    };
    expect(last.messages).toHaveLength(3);
  });

  it("messages-tuple: [message chunk, metadata] as `messages` events", async () => {
    const { parts } = await streamRun(["messages-tuple"]);
    expect(names(parts)).toEqual(new Set(["metadata", "messages"]));
    const tuples = parts.filter((p) => p.event === "messages").map((p) => p.data as unknown[]);
    const contents = tuples.map((t) => (t[0] as { content: string }).content);
    expect(contents).toEqual(["h", "e", "l", "l", "o", "echoed"]);
    expect(tuples[0]?.[1]).toMatchObject({ langgraph_node: "agent" });
  });

  it("events: LangChain stream events (v2) of the graph, its nodes and its model", async () => {
    const { parts } = await streamRun(["events"]);
    expect(names(parts)).toEqual(new Set(["metadata", "events"]));
    const events = parts.filter((p) => p.event === "events").map((p) => p.data as never);
    expect(new Set(events.map((e: { event: string }) => e.event))).toEqual(
      new Set([
        "on_chain_start",
        "on_chain_end",
        "on_chat_model_start",
        "on_chat_model_stream",
        "on_chat_model_end",
      ]),
    );
    const start = events.find(
      (e: { event: string }) => e.event === "on_chat_model_start",
    ) as unknown as { name: string; run_id: string; metadata: Record<string, unknown> };
    expect(start).toMatchObject({
      name: "FakeListChatModel",
      metadata: { langgraph_node: "agent" },
    });
    const root = events.find((e: { event: string }) => e.event === "on_chain_start") as unknown as {
      name: string;
      run_id: string;
      parent_ids: string[];
    };
    expect(root).toMatchObject({ name: "lead_agent", parent_ids: [] });
    // A node's model call descends from the graph's run and the node's.
    const model = start as unknown as { parent_ids: string[] };
    expect(model.parent_ids[0]).toBe(root.run_id);
    expect(model.parent_ids).toHaveLength(2);
    const end = events.find(
      (e: { event: string }) => e.event === "on_chat_model_end",
    ) as unknown as { data: { output: { content: string } } };
    expect(end.data.output.content).toBe("hello");
  });

  it("updates, values and custom as LangGraph streams them", async () => {
    const { parts } = await streamRun(["updates", "values"]);
    expect(
      parts.filter((p) => p.event === "updates").map((p) => Object.keys(p.data as object)),
    ).toEqual([["agent"], ["echo"]]);
    expect(parts.filter((p) => p.event === "values")).toHaveLength(3);
  });

  it("tasks and checkpoints: the platform's shapes", async () => {
    const { threadId, parts } = await streamRun(["tasks", "checkpoints"], {
      graphName: "steps",
      input: {},
    });
    const checkpoints = parts.filter((p) => p.event === "checkpoints").map((p) => p.data);
    expect(checkpoints).toMatchObject([
      { values: { steps: [] }, metadata: { source: "input", step: -1 }, next: ["__start__"] },
      { values: { steps: [] }, metadata: { source: "loop", step: 0 }, next: ["first"] },
      { values: { steps: ["first"] }, metadata: { step: 1 }, next: ["second"] },
      { values: { steps: ["first", "second"] }, metadata: { step: 2 }, next: ["third"] },
      { values: { steps: ["first", "second", "third"] }, metadata: { step: 3 }, next: [] },
    ]);
    const head = checkpoints.at(-1) as Record<string, unknown>;
    expect(head.checkpoint).toEqual({
      thread_id: threadId,
      checkpoint_ns: "",
      checkpoint_id: expect.any(String),
      checkpoint_map: null,
    });
    expect(head.parent_checkpoint).toMatchObject({ thread_id: threadId, checkpoint_ns: "" });
    expect(head.config).toEqual({
      configurable: {
        thread_id: threadId,
        checkpoint_ns: "",
        checkpoint_id: (head.checkpoint as { checkpoint_id: string }).checkpoint_id,
      },
    });
    const tasks = parts.filter((p) => p.event === "tasks").map((p) => p.data);
    expect(tasks).toMatchObject([
      { name: "first", input: { steps: [] }, triggers: ["branch:to:first"], interrupts: [] },
      { name: "first", result: { steps: ["first"] }, interrupts: [] },
      { name: "second", triggers: ["branch:to:second"] },
      { name: "second", result: { steps: ["second"] } },
      { name: "third", triggers: ["branch:to:third"] },
      { name: "third", result: { steps: ["third"] } },
    ]);
  });

  it("debug: checkpoints addressed as the thread's history addresses them", async () => {
    const { threadId, parts } = await streamRun(["debug"], { graphName: "steps", input: {} });
    const debug = parts.filter((p) => p.event === "debug").map((p) => p.data as never);
    expect(new Set(debug.map((d: { type: string }) => d.type))).toEqual(
      new Set(["checkpoint", "task", "task_result"]),
    );
    const streamed = debug
      .filter((d: { type: string }) => d.type === "checkpoint")
      .map((d: { payload: Record<string, unknown> }) => ({
        step: (d.payload.metadata as { step: number }).step,
        checkpoint: d.payload.checkpoint,
        parent_checkpoint: d.payload.parent_checkpoint,
      }));
    const history = (await g.client.threads.getHistory(threadId, { limit: streamed.length }))
      .reverse()
      .map((state) => ({
        step: state.metadata?.step,
        checkpoint: state.checkpoint,
        parent_checkpoint: state.parent_checkpoint,
      }));
    expect(streamed).toEqual(history);
  });

  it("stream_subgraphs: a subgraph's chunks as `mode|<namespace>` events", async () => {
    const { parts } = await streamRun(
      ["updates", "values", "debug", "tasks", "checkpoints", "custom"],
      { graphName: "nested", input: {}, subgraphs: true },
    );
    const nested = parts.filter((p) => p.event.includes("|"));
    const modes = new Set(nested.map((p) => p.event.split("|")[0]));
    expect(modes).toEqual(
      new Set(["updates", "values", "debug", "tasks", "checkpoints", "custom"]),
    );
    expect(nested.find((p) => p.event.startsWith("custom|"))?.data).toEqual({ from: "leaf" });
    for (const part of nested) expect(part.event.split("|")[1]).toMatch(/^inner:/);
    const leaf = nested.find((p) => p.event.startsWith("updates|"))?.data;
    expect(leaf).toEqual({ leaf: { steps: ["leaf"] } });
    expect(parts.filter((p) => p.event === "updates").map((p) => p.data)).toEqual([
      { inner: { steps: ["leaf"], answer: null } },
    ]);
  });

  it("stream_subgraphs: a subgraph's model in messages-tuple, messages and events", async () => {
    const { parts } = await streamRun(["messages-tuple", "messages", "events"], {
      graphName: "nestedChat",
      subgraphs: true,
    });
    const tuples = parts.filter((p) => p.event.startsWith("messages|inner:"));
    expect(tuples.map((p) => (p.data as [{ content: string }])[0].content)).toEqual([
      "h",
      "e",
      "y",
    ]);
    expect(parts.filter((p) => p.event === "messages")).toEqual([]);
    const partial = parts.filter((p) => p.event === "messages/partial");
    expect((partial.at(-1)?.data as Array<{ content: string }> | undefined)?.[0]?.content).toBe(
      "hey",
    );
    const complete = parts
      .filter((p) => p.event === "messages/complete")
      .flatMap((p) => p.data as Array<{ content: string }>);
    expect(complete.map((m) => m.content)).toEqual(["hi", "hey"]);
    const models = parts.filter(
      (p) => p.event === "events" && (p.data as { event: string }).event === "on_chat_model_end",
    );
    expect(models).toHaveLength(1);
  });

  it("a join filters by mode, the API's `messages` included", async () => {
    const thread = await g.client.threads.create();
    const run = await g.client.runs.create(thread.thread_id, "lead_agent", {
      input: say("hi"),
      streamMode: ["messages", "values", "events"],
      config: graph("chat"),
    });
    await g.client.runs.join(thread.thread_id, run.run_id);
    const joined = await collect(
      g.client.runs.joinStream(thread.thread_id, run.run_id, { streamMode: ["messages"] }),
    );
    expect(names(joined)).toEqual(
      new Set(["metadata", "messages/metadata", "messages/partial", "messages/complete"]),
    );
  });
});
