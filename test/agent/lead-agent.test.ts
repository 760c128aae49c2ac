/**
 * The lead agent: the model ↔ tools loop with the scripted model and the real file tools in a
 * temporary FAWN_HOME, tool failures as messages, model selection, and whole runs through the
 * real runtime (createFawn → RunService → worker → journal), including the real ChatOpenAI client
 * against the mock OpenAI server and cancellation of a hanging model call.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLeadAgent, LEAD_AGENT_TAG } from "../../src/agent/lead-agent/create-lead-agent.js";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import { toStreamingAgent } from "../../src/agent/lead-agent/streaming-agent.js";
import { startMockOpenAI } from "../../src/agent/mock-openai/server.js";
import { DEMO_SCRIPT_PATH } from "../../src/agent/models/demo-model.js";
import { loadScript } from "../../src/agent/scripted/load-script.js";
import { parseScript } from "../../src/agent/scripted/script-schema.js";
import { ScriptedChatModel } from "../../src/agent/scripted/scripted-chat-model.js";
import { createThreadFileTools } from "../../src/agent/tools/thread-file-tools.js";
import { createFawn, type Fawn } from "../../src/app/create-fawn.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { FawnPaths } from "../../src/core/paths.js";
import type { RunRecord } from "../../src/runtime/run-record.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { Latch, within } from "../helpers/latch.js";

const REPORT = "/mnt/user-data/outputs/report.md";

const reportScript = parseScript(
  [
    {
      match: "report",
      turns: [
        {
          content: "Writing the report.",
          tool_calls: [
            {
              name: "write_file",
              args: { description: "report", path: REPORT, content: "# Report\n\n42\n" },
            },
          ],
        },
        { tool_calls: [{ name: "present_files", args: { filepaths: [REPORT] } }] },
        { content: "Done: the report is at /mnt/user-data/outputs/report.md." },
      ],
    },
    {
      match: "^break",
      turns: [
        {
          tool_calls: [
            { name: "explode", args: {} },
            { name: "no_such_tool", args: {} },
          ],
        },
        { content: "Recovered after the failures." },
      ],
    },
  ],
  "inline",
);

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-lead-"));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

class TagRecorder extends BaseCallbackHandler {
  name = "tag_recorder";
  tags: string[][] = [];
  override handleChatModelStart(
    _llm: unknown,
    _messages: unknown,
    _runId: string,
    _parent?: string,
    _extra?: Record<string, unknown>,
    tags?: string[],
  ): void {
    this.tags.push(tags ?? []);
  }
}

/** Resolves once the run's worker task has settled, whatever its outcome. */
function settledOf(record: RunRecord): Promise<void> {
  return record.task ? record.task.settled().then(() => undefined) : Promise.resolve();
}

function threadConfig(threadId: string) {
  return { configurable: { thread_id: threadId } };
}

describe("createLeadAgent", () => {
  it("loops model → tools → model: writes, presents, answers", async () => {
    const paths = new FawnPaths(home);
    const agent = createLeadAgent({
      model: new ScriptedChatModel({ script: reportScript }),
      tools: createThreadFileTools({ paths }),
      checkpointer: new MemorySaver(),
      systemPrompt: "You are a test agent.",
    });
    const recorder = new TagRecorder();
    const state = await withBlockingIoGate(() =>
      agent.invoke(
        { messages: [new HumanMessage("Write the report")] },
        { ...threadConfig("t-loop"), callbacks: [recorder] },
      ),
    );
    expect(state.messages.map((m: BaseMessage) => m.getType())).toEqual([
      "human",
      "ai",
      "tool",
      "ai",
      "tool",
      "ai",
    ]);
    expect(state.messages.at(-1)?.content).toBe(
      "Done: the report is at /mnt/user-data/outputs/report.md.",
    );
    expect(state.artifacts).toEqual([REPORT]);
    expect(state.messages.some((m: BaseMessage) => m.getType() === "system")).toBe(false);
    const hostFile = paths.resolveVirtualPath({ userId: "default", threadId: "t-loop" }, REPORT);
    expect(await readFile(hostFile, "utf8")).toBe("# Report\n\n42\n");
    expect(recorder.tags).toHaveLength(3);
    for (const tags of recorder.tags) expect(tags).toContain(LEAD_AGENT_TAG);
  });

  it("a throwing tool and an unknown tool become error ToolMessages; the run goes on", async () => {
    const explode = tool(
      async () => {
        throw new TypeError("boom");
      },
      { name: "explode", description: "always fails", schema: z.object({}) },
    );
    const agent = createLeadAgent({
      model: new ScriptedChatModel({ script: reportScript }),
      tools: [explode],
    });
    const state = await agent.invoke({ messages: [new HumanMessage("break things")] });
    const results = state.messages.filter((m: BaseMessage) => ToolMessage.isInstance(m));
    expect(results.map((m: ToolMessage) => [m.name, m.status, m.content])).toEqual([
      [
        "explode",
        "error",
        "Error: Tool 'explode' failed with TypeError: boom. Continue with available context, or choose an alternative tool.",
      ],
      ["no_such_tool", "error", "Error: no_such_tool is not a valid tool, try one of [explode]."],
    ]);
    expect(state.messages.at(-1)?.content).toBe("Recovered after the failures.");
  });
  it("a hanging model call ends as soon as the run's signal aborts", async () => {
    const started = new Latch();
    class StartWatcher extends BaseCallbackHandler {
      name = "start_watcher";
      override handleChatModelStart(): void {
        started.set();
      }
    }
    const agent = createLeadAgent({
      model: new ScriptedChatModel({ script: parseScript([{ hang: true }], "inline") }),
    });
    const controller = new AbortController();
    const run = agent.invoke(
      { messages: [new HumanMessage("wait")] },
      { signal: controller.signal, callbacks: [new StartWatcher()] },
    );
    run.catch(() => undefined);
    await within(started.wait(), 5000, "the model was never called");
    controller.abort(new Error("cancelled by test"));
    await expect(within(run, 5000, "the hang outlived the abort")).rejects.toThrow();
  });
});

describe("toStreamingAgent", () => {
  function reportAgent(maxRecursionLimit?: number) {
    const graph = createLeadAgent({
      model: new ScriptedChatModel({ script: reportScript }),
      tools: createThreadFileTools({ paths: new FawnPaths(home) }),
    });
    return toStreamingAgent(graph, maxRecursionLimit ? { maxRecursionLimit } : {});
  }

  async function collect(
    agent: ReturnType<typeof toStreamingAgent>,
    options: Record<string, unknown>,
  ): Promise<unknown[]> {
    const chunks: unknown[] = [];
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("report")] },
      { configurable: { thread_id: "t-stream" }, ...options },
    )) {
      chunks.push(chunk);
    }
    return chunks;
  }

  it("one stream mode yields bare chunks, several yield [mode, chunk] pairs", async () => {
    const single = await collect(reportAgent(), { streamMode: "values" });
    expect(single.every((chunk) => !Array.isArray(chunk) && typeof chunk === "object")).toBe(true);
    const several = await collect(reportAgent(), { streamMode: ["values", "updates"] });
    expect(new Set(several.map((chunk) => (Array.isArray(chunk) ? chunk[0] : "bare")))).toEqual(
      new Set(["values", "updates"]),
    );
  });

  it("the run's recursion_limit is honoured, and capped by max_recursion_limit", async () => {
    await expect(collect(reportAgent(), { recursion_limit: 3 })).rejects.toThrow(/Recursion limit/);
    await expect(collect(reportAgent(3), { recursion_limit: 500 })).rejects.toThrow(
      /Recursion limit/,
    );
    await expect(collect(reportAgent(), { recursion_limit: 50 })).resolves.toBeDefined();
  });
});

describe("createLeadAgentFactory model selection", () => {
  async function answerOf(
    models: Record<string, unknown>[],
    configurable: Record<string, unknown>,
  ) {
    const scriptFile = join(home, "s.yaml");
    await writeFile(scriptFile, "- turns:\n    - content: from script\n");
    const { config } = parseConfig({ models }, { env: { FAWN_HOME: home } });
    const factory = createLeadAgentFactory({
      config,
      baseDir: home,
      checkpointer: new MemorySaver(),
    });
    const agent = await factory({ config: { configurable: { thread_id: "t", ...configurable } } });
    let last: unknown;
    for await (const chunk of await agent.stream(
      { messages: [new HumanMessage("hello")] },
      { configurable: { thread_id: "t", ...configurable }, streamMode: "values" },
    )) {
      last = chunk;
    }
    const messages = (last as { messages: BaseMessage[] }).messages;
    return String(messages.at(-1)?.content);
  }

  const scripted = (name: string) => ({ name, use: "scripted", model: name, script: "s.yaml" });

  it("no models configured → the offline demo model", async () => {
    expect(await answerOf([], {})).toMatch(/offline demo model/);
  });

  it("the first model by default, another by model_name", async () => {
    const other = { name: "other", use: "scripted", model: "x", script: "other.yaml" };
    await writeFile(join(home, "other.yaml"), "- turns:\n    - content: from other\n");
    expect(await answerOf([scripted("first"), other], {})).toBe("from script");
    expect(await answerOf([scripted("first"), other], { model_name: "other" })).toBe("from other");
    expect(await answerOf([scripted("first"), other], { model_name: "unknown" })).toBe(
      "from script",
    );
  });
});

describe("runs through the real runtime", () => {
  let fawn: Fawn | undefined;

  afterEach(async () => {
    await fawn?.close();
    fawn = undefined;
  });

  async function startFawn(rawConfig: Record<string, unknown> = {}) {
    const { config } = parseConfig(rawConfig, { env: { FAWN_HOME: home } });
    const checkpointer = new MemorySaver();
    fawn = await createFawn({
      config,
      stores: createMemoryStores(),
      checkpointer,
      agentFactory: createLeadAgentFactory({ config, checkpointer, baseDir: home }),
      runContext: { spawnHousekeeping: () => undefined },
    });
    return { fawn, checkpointer };
  }

  async function runTask(
    instance: Fawn,
    threadId: string,
    text: string,
  ): Promise<{ record: RunRecord; streamed: string[] }> {
    const record = await instance.runs.submit({
      threadId,
      invocation: {
        input: { messages: [new HumanMessage(text)] },
        stream_mode: ["values", "messages"],
      },
    });
    const streamed: string[] = [];
    for await (const item of instance.bridge.subscribe(record.runId, { heartbeatMs: 60_000 })) {
      if (item.kind !== "event") break;
      streamed.push(item.event.event);
    }
    await within(settledOf(record), 15_000, `run ${record.runId} did not finish`);
    return { record, streamed };
  }

  async function eventTypes(instance: Fawn, record: RunRecord): Promise<string[]> {
    const events = await instance.stores.events.listEvents(record.threadId, record.runId, {});
    return events.map((event) => event.event_type);
  }

  it("the default demo model completes its task: report written, presented, one terminal", async () => {
    const { fawn: instance, checkpointer } = await startFawn();
    const { record, streamed } = await withBlockingIoGate(() =>
      runTask(instance, "demo-thread", "Write me a short report"),
    );
    const row = await instance.stores.runs.get(record.runId);
    expect(row?.status).toBe("success");
    expect(streamed).toContain("messages");
    const types = await eventTypes(instance, record);
    expect(types).toContain("llm.ai.response");
    expect(types).toContain("llm.tool.result");
    expect(types.filter((type) => type === "run.terminal")).toHaveLength(1);
    const saved = await checkpointer.getTuple({ configurable: { thread_id: "demo-thread" } });
    expect(saved?.checkpoint.channel_values.artifacts).toEqual([REPORT]);
    const report = new FawnPaths(home).resolveVirtualPath(
      { userId: "default", threadId: "demo-thread" },
      REPORT,
    );
    expect(await readFile(report, "utf8")).toMatch(/^# Prime numbers below 100/);
    // The demo script matches the shipped file the demo model reads.
    expect((await loadScript(DEMO_SCRIPT_PATH)).rules.length).toBeGreaterThan(1);
  });

  it("the real ChatOpenAI client against the mock server runs the same task", async () => {
    const server = await startMockOpenAI({ script: DEMO_SCRIPT_PATH, apiKey: "sk-mock-key" });
    try {
      const { fawn: instance } = await startFawn({
        models: [
          {
            name: "mock-gpt",
            use: "langchain_openai:ChatOpenAI",
            model: "gpt-mock",
            api_key: "sk-mock-key",
            base_url: server.url,
            max_retries: 0,
          },
        ],
      });
      const { record, streamed } = await runTask(instance, "openai-thread", "A report please");
      const row = await instance.stores.runs.get(record.runId);
      expect(row?.error ?? null).toBeNull();
      expect(row?.status).toBe("success");
      expect(streamed.filter((event) => event === "messages").length).toBeGreaterThan(3);
      const types = await eventTypes(instance, record);
      // write_file and present_files; this agent has no sandbox, so the demo's bash step is
      // answered as an unknown tool (no tool run, no result event).
      expect(types.filter((type) => type === "llm.tool.result").length).toBeGreaterThanOrEqual(2);
      expect(types.filter((type) => type === "run.terminal")).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("cancelling a run whose model call hangs ends it interrupted", async () => {
    await writeFile(join(home, "hang.yaml"), "- hang: true\n");
    const { fawn: instance } = await startFawn({
      models: [{ name: "hanging", use: "scripted", model: "h", script: "hang.yaml" }],
    });
    const record = await instance.runs.submit({
      threadId: "hang-thread",
      invocation: { input: { messages: [new HumanMessage("wait")] } },
    });
    await within(
      (async () => {
        while ((await instance.stores.runs.get(record.runId))?.status !== "running") {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })(),
      5000,
      "run never started",
    );
    expect(await instance.manager.cancel(record.runId, { action: "interrupt" })).toBe("cancelled");
    await within(settledOf(record), 5000, "hang survived the cancel");
    expect((await instance.stores.runs.get(record.runId))?.status).toBe("interrupted");
  });
});
