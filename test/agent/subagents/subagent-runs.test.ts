/**
 * Sub-agents in whole runs: through createFawn (RunService → worker → journal) the `task` tool's
 * progress becomes `subagent.start` / `subagent.step` / `subagent.end` run events, and
 * cancelling the lead agent's run stops a sub-agent mid-call with `task_cancelled`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { createLeadAgent } from "../../../src/agent/lead-agent/create-lead-agent.js";
import { createLeadAgentFactory } from "../../../src/agent/lead-agent/lead-agent-factory.js";
import { parseLeadMiddlewareSettings } from "../../../src/agent/middlewares/lead-middlewares.js";
import { parseScript } from "../../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../../src/agent/scripted/scripted-chat-model.js";
import { createSubagentSupport } from "../../../src/agent/subagents/subagent-support.js";
import { createThreadFileTools } from "../../../src/agent/tools/thread-file-tools.js";
import { createFawn, type Fawn } from "../../../src/app/create-fawn.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { FawnPaths } from "../../../src/core/paths.js";
import type { RunRecord } from "../../../src/runtime/run-record.js";
import { createMemoryStores } from "../../../src/stores/memory/stores.js";
import { withBlockingIoGate } from "../../helpers/blocking-io-gate.js";
import { Latch, within } from "../../helpers/latch.js";

let home: string;
let fawn: Fawn | undefined;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-subagent-runs-"));
});

afterEach(async () => {
  await fawn?.close();
  fawn = undefined;
  await rm(home, { recursive: true, force: true });
});

function task(description: string, prompt: string) {
  return { name: "task", args: { description, prompt, subagent_type: "general-purpose" } };
}

const SCRIPT = [
  {
    match: "^Compare",
    turns: [
      {
        content: "Two sub-agents, in parallel.",
        tool_calls: [
          task("first half", "SUB: the first half"),
          task("second half", "SUB: the second half"),
        ],
      },
      { content: "Both halves are in." },
    ],
  },
  {
    match: "^Stall",
    turns: [{ tool_calls: [task("stall", "SUB hang: forever")] }, { content: "never" }],
  },
  {
    match: "^SUB: the",
    turns: [
      {
        content: "Writing my half.",
        tool_calls: [
          {
            name: "write_file",
            args: { description: "half", path: "/mnt/user-data/workspace/half.md", content: "½" },
          },
        ],
      },
      { content: "My half is done." },
    ],
  },
  { match: "^SUB hang", hang: true },
];

/** The text of a `messages` event (`[message_chunk, metadata]`). */
function chunkText(data: unknown): string {
  const [chunk] = Array.isArray(data) ? data : [];
  const content: unknown =
    typeof chunk === "object" && chunk !== null ? Reflect.get(chunk, "content") : "";
  return typeof content === "string" ? content : "";
}

function settledOf(record: RunRecord): Promise<void> {
  return record.task ? record.task.settled().then(() => undefined) : Promise.resolve();
}

async function startFawn(): Promise<Fawn> {
  await writeFile(join(home, "script.yaml"), stringify(SCRIPT));
  const { config } = parseConfig(
    { models: [{ name: "scripted", use: "scripted", model: "s", script: "script.yaml" }] },
    { env: { FAWN_HOME: home } },
  );
  const checkpointer = new MemorySaver();
  fawn = await createFawn({
    config,
    stores: createMemoryStores(),
    checkpointer,
    agentFactory: createLeadAgentFactory({ config, checkpointer, baseDir: home }),
    runContext: { spawnHousekeeping: () => undefined },
  });
  return fawn;
}

describe("sub-agents in a createFawn run", () => {
  it("records subagent.start, subagent.step and subagent.end for each task, in order", async () => {
    const instance = await startFawn();
    const record = await instance.runs.submit({
      threadId: "compare-thread",
      invocation: {
        input: { messages: [new HumanMessage("Compare the two halves")] },
        stream_mode: ["values", "custom", "messages"],
        config: { configurable: { subagent_enabled: true } },
      },
    });
    const streamed: string[] = [];
    const tokens: string[] = [];
    await withBlockingIoGate(async () => {
      for await (const item of instance.bridge.subscribe(record.runId, { heartbeatMs: 60_000 })) {
        if (item.kind !== "event") break;
        streamed.push(item.event.event);
        if (item.event.event === "messages") tokens.push(chunkText(item.event.data));
      }
      await within(settledOf(record), 15_000, "run did not finish");
    });
    expect((await instance.stores.runs.get(record.runId))?.status).toBe("success");
    expect(streamed).toContain("custom");
    // The lead agent's tokens stream; the sub-agents' stay out of the lead's messages stream.
    expect(tokens.join("")).toContain("Both halves are in.");
    expect(tokens.join("")).not.toContain("Writing my half.");

    const events = await instance.stores.events.listEvents(record.threadId, record.runId, {});
    const subagentEvents = events.filter((event) => event.event_type.startsWith("subagent."));
    const taskIds = [...new Set(subagentEvents.map((event) => String(event.metadata.task_id)))];
    expect(taskIds).toHaveLength(2);
    for (const taskId of taskIds) {
      const ofTask = subagentEvents.filter((event) => event.metadata.task_id === taskId);
      expect(ofTask.map((event) => event.event_type)).toEqual([
        "subagent.start",
        "subagent.step",
        "subagent.step",
        "subagent.end",
      ]);
      expect(ofTask[0]?.content).toMatchObject({ description: expect.stringMatching(/half$/) });
      expect(ofTask[1]?.content).toMatchObject({ message_index: 1, kind: "ai" });
      expect(ofTask[3]?.content).toMatchObject({ status: "completed", result: "My half is done." });
    }
    // The sub-agents' model calls are in the run's accounting, as sub-agent tokens.
    const row = await instance.stores.runs.get(record.runId);
    expect(row?.subagent_tokens ?? 0).toBeGreaterThan(0);
    expect(events.filter((event) => event.event_type === "run.terminal")).toHaveLength(1);
  });
});

describe("sub-agent events without the custom stream mode", () => {
  it("records subagent.* events for a delegating run that streams only values", async () => {
    const instance = await startFawn();
    const record = await instance.runs.submit({
      threadId: "values-only",
      invocation: {
        input: { messages: [new HumanMessage("Compare the two halves")] },
        stream_mode: ["values"],
        config: { configurable: { subagent_enabled: true } },
      },
    });
    const streamed: string[] = [];
    for await (const item of instance.bridge.subscribe(record.runId, { heartbeatMs: 60_000 })) {
      if (item.kind !== "event") break;
      streamed.push(item.event.event);
    }
    await within(settledOf(record), 15_000, "run did not finish");
    expect((await instance.stores.runs.get(record.runId))?.status).toBe("success");
    // The client asked for values only: the custom frames were read, not published.
    expect(streamed).not.toContain("custom");
    expect(streamed).toContain("values");
    const events = await instance.stores.events.listEvents(record.threadId, record.runId, {});
    const types = events.map((event) => event.event_type);
    expect(types.filter((type) => type === "subagent.start")).toHaveLength(2);
    expect(types.filter((type) => type === "subagent.end")).toHaveLength(2);
  });
});

describe("cancelling the lead agent's run", () => {
  it("ends a run whose sub-agent hangs interrupted, its start recorded", async () => {
    const instance = await startFawn();
    const record = await instance.runs.submit({
      threadId: "stall-run",
      invocation: {
        input: { messages: [new HumanMessage("Stall the work")] },
        stream_mode: ["values", "custom"],
        config: { configurable: { subagent_enabled: true } },
      },
    });
    const started = new Latch();
    const watching = (async () => {
      for await (const item of instance.bridge.subscribe(record.runId, { heartbeatMs: 60_000 })) {
        if (item.kind !== "event") break;
        if (item.event.event === "custom") started.set();
      }
    })();
    await within(started.wait(), 5000, "the sub-agent never started");
    expect(await instance.manager.cancel(record.runId, { action: "interrupt" })).toBe("cancelled");
    await within(settledOf(record), 5000, "the hanging sub-agent held the run");
    await watching;
    expect((await instance.stores.runs.get(record.runId))?.status).toBe("interrupted");
    const events = await instance.stores.events.listEvents(record.threadId, record.runId, {});
    expect(events.map((event) => event.event_type)).toContain("subagent.start");
    // The task the cancel cut short is closed, so every start has an end.
    const ends = events.filter((event) => event.event_type === "subagent.end");
    expect(ends).toHaveLength(1);
    expect(ends[0]?.content).toMatchObject({ status: "cancelled", closed_by: "run_end" });
  });

  it("aborts the sub-agent's model call and reports task_cancelled", async () => {
    const paths = new FawnPaths(home);
    const { config } = parseConfig(
      { models: [{ name: "scripted", use: "scripted", model: "s", script: "unused.yaml" }] },
      { env: { FAWN_HOME: home } },
    );
    const [modelConfig] = config.models;
    if (!modelConfig) throw new Error("the model entry did not parse");
    const model = new ScriptedChatModel({ script: parseScript(SCRIPT, "inline") });
    const tools = createThreadFileTools({ paths });
    const support = createSubagentSupport({
      config,
      sandboxKind: null,
      buildModel: async () => model,
      middlewareOptions: { settings: parseLeadMiddlewareSettings(config), paths },
    });
    const lead = createLeadAgent({
      model,
      tools: [...tools, support.taskTool(modelConfig, tools)],
      checkpointer: new MemorySaver(),
    });
    const events: Array<Record<string, unknown>> = [];
    const started = new Latch();
    const cancelled = new Latch();
    const controller = new AbortController();
    // LangGraph writes `custom` chunks through `config.writer`; this one outlives the stream.
    const options: LangGraphRunnableConfig = {
      configurable: { thread_id: "stall-thread", run_id: "run-stall" },
      signal: controller.signal,
      writer: (chunk: unknown) => {
        const event = chunk as Record<string, unknown>;
        events.push(event);
        if (event.type === "task_started") started.set();
        if (event.type === "task_cancelled") cancelled.set();
      },
    };
    const run = (async () => {
      const stream = await lead.stream({ messages: [new HumanMessage("Stall the work")] }, options);
      for await (const _ of stream) {
        // drain
      }
    })();
    await within(started.wait(), 5000, "the sub-agent never started");
    controller.abort();
    await expect(run).rejects.toThrow();
    await within(cancelled.wait(), 5000, "the sub-agent was not cancelled");
    expect(events.map((event) => event.type)).toEqual(["task_started", "task_cancelled"]);
    expect(events[1]).toMatchObject({ error: "Task cancelled by user." });
  });
});
