/**
 * The `task` tool through the lead agent the factory builds per run: the scripted model drives
 * both the lead agent and its sub-agents (a sub-agent's rule matches its prompt, which is its
 * only human message), with the real thread file tools in a temporary FAWN_HOME.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { createLeadAgentFactory } from "../../../src/agent/lead-agent/lead-agent-factory.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { FawnPaths } from "../../../src/core/paths.js";

let home: string;
let saver: MemorySaver;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-task-"));
  saver = new MemorySaver();
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const NOTES = "/mnt/user-data/workspace/notes.md";

function task(description: string, prompt: string, subagentType = "general-purpose") {
  return { name: "task", args: { description, prompt, subagent_type: subagentType } };
}

/** Lead rules first (they match the user's message), then the sub-agents' (their prompts). */
const SCRIPT = [
  {
    match: "^Research",
    turns: [
      { content: "Delegating.", tool_calls: [task("find the answer", "SUB answer: find it")] },
      { content: "The lead is done." },
    ],
  },
  {
    match: "^Ask a stranger",
    turns: [{ tool_calls: [task("odd one", "SUB answer: find it", "nope")] }, { content: "ok" }],
  },
  {
    match: "^Loop",
    turns: [{ tool_calls: [task("spin", "SUB loop: keep going", "looper")] }, { content: "ok" }],
  },
  {
    match: "^Consult",
    turns: [
      {
        tool_calls: [
          task("ask the expert", "SUB expert: weigh in", "expert"),
          task("ask the ghost", "SUB expert: weigh in", "ghost"),
        ],
      },
      { content: "ok" },
    ],
  },
  {
    match: "^Wait",
    turns: [
      { tool_calls: [task("sleep", "SUB hang: never answer", "sleeper")] },
      { content: "ok" },
    ],
  },
  {
    match: "^Fan out",
    turns: [
      {
        tool_calls: [
          task("one", "SUB answer: one"),
          task("two", "SUB answer: two"),
          task("three", "SUB answer: three"),
          task("four", "SUB answer: four"),
        ],
      },
      { content: "fanned out" },
    ],
  },
  {
    match: "^SUB answer",
    turns: [
      {
        content: "Taking notes.",
        tool_calls: [
          {
            name: "write_file",
            args: { description: "notes", path: NOTES, content: "forty-two\n" },
          },
        ],
      },
      { content: "The answer is 42; notes are in /mnt/user-data/workspace/notes.md." },
    ],
  },
  {
    match: "^SUB loop",
    turns: [
      {
        content: "Still working on it.",
        tool_calls: [{ name: "write_file", args: { description: "n", path: NOTES, content: "x" } }],
      },
    ],
  },
  { match: "^SUB hang", hang: true },
];

async function factoryFor(extra: Record<string, unknown> = {}) {
  await writeFile(join(home, "script.yaml"), stringify(SCRIPT));
  await writeFile(join(home, "other.yaml"), stringify([{ turns: [{ content: "Other view." }] }]));
  const { config } = parseConfig(
    {
      models: [
        { name: "scripted", use: "scripted", model: "s", script: "script.yaml" },
        { name: "other", use: "scripted", model: "o", script: "other.yaml" },
      ],
      subagents: {
        custom_agents: {
          looper: { description: "loops", system_prompt: "You loop.", max_turns: 3 },
          sleeper: { description: "sleeps", system_prompt: "You sleep.", timeout_seconds: 0.2 },
          expert: { description: "knows", system_prompt: "You know.", model: "other" },
          ghost: { description: "absent", system_prompt: "You are not.", model: "missing" },
        },
      },
      ...extra,
    },
    { env: { FAWN_HOME: home } },
  );
  return createLeadAgentFactory({ config, checkpointer: saver, baseDir: home });
}

interface RunResult {
  messages: BaseMessage[];
  custom: Array<Record<string, unknown>>;
  delegations: Array<Record<string, unknown>>;
}

async function runLead(
  text: string,
  runConfig: Record<string, unknown> = { subagent_enabled: true },
  threadId = "t1",
): Promise<RunResult> {
  const configurable = { thread_id: threadId, run_id: "run-1", ...runConfig };
  const agent = await (await factoryFor())({ config: { configurable } });
  const custom: Array<Record<string, unknown>> = [];
  let values: Record<string, unknown> = {};
  for await (const chunk of await agent.stream(
    { messages: [new HumanMessage(text)] },
    { configurable, streamMode: ["values", "custom"] },
  )) {
    const [mode, data] = chunk as [string, Record<string, unknown>];
    if (mode === "custom") custom.push(data);
    else values = data;
  }
  return {
    messages: values.messages as BaseMessage[],
    custom,
    delegations: values.delegations as Array<Record<string, unknown>>,
  };
}

function taskResults(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter(
    (message): message is ToolMessage => ToolMessage.isInstance(message) && message.name === "task",
  );
}

describe("task tool", () => {
  it("a general-purpose sub-agent finishes: its answer, files, progress and ledger reach the lead", async () => {
    const { messages, custom, delegations } = await runLead("Research the answer");
    const [result] = taskResults(messages);
    expect(result?.content).toBe(
      "Task Succeeded. Result: The answer is 42; notes are in /mnt/user-data/workspace/notes.md.",
    );
    const kwargs = result?.additional_kwargs ?? {};
    expect(kwargs.subagent_status).toBe("completed");
    expect(kwargs.subagent_result_brief).toBe(
      "The answer is 42; notes are in /mnt/user-data/workspace/notes.md.",
    );
    expect(kwargs.subagent_result_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(kwargs.subagent_model_name).toBe("scripted");
    expect(kwargs.subagent_token_usage).toMatchObject({ total_tokens: expect.any(Number) });
    expect(kwargs.subagent_stop_reason).toBeUndefined();

    // The sub-agent's conversation stays its own: the thread holds only the lead's messages.
    expect(messages.map((message) => message.getType())).toEqual(["human", "ai", "tool", "ai"]);
    // Nor is it checkpointed, not even in a namespace of the lead's thread.
    for await (const saved of saver.list({ configurable: { thread_id: "t1" } })) {
      expect(saved.config.configurable?.checkpoint_ns ?? "").toBe("");
      expect(JSON.stringify(saved.checkpoint.channel_values)).not.toContain("Taking notes.");
    }
    // It worked on the thread's own files.
    const notes = new FawnPaths(home).resolveVirtualPath(
      { userId: "default", threadId: "t1" },
      NOTES,
    );
    expect(await readFile(notes, "utf8")).toBe("forty-two\n");

    const taskId = result?.tool_call_id;
    expect(custom.map((event) => event.type)).toEqual([
      "task_started",
      "task_running",
      "task_running",
      "task_completed",
    ]);
    expect(custom.every((event) => event.task_id === taskId)).toBe(true);
    expect(custom[0]).toMatchObject({ description: "find the answer", model_name: "scripted" });
    expect(custom[1]).toMatchObject({ message_index: 1, total_messages: 1, kind: "ai" });
    expect(String(custom[1]?.text)).toContain("→ write_file(");
    expect(custom[3]).toMatchObject({ result: expect.stringContaining("The answer is 42") });
    expect(delegations).toEqual([
      expect.objectContaining({
        id: taskId,
        run_id: "run-1",
        subagent_type: "general-purpose",
        status: "completed",
      }),
    ]);
  });

  it("an unknown type fails with the available types listed", async () => {
    const { messages, custom } = await runLead("Ask a stranger");
    const [result] = taskResults(messages);
    expect(result?.content).toBe(
      "Task failed. Error: Unknown subagent type 'nope'. Available: general-purpose, looper, sleeper, expert, ghost",
    );
    expect(result?.additional_kwargs.subagent_status).toBe("failed");
    expect(custom).toEqual([]);
  });

  it("a type naming another model runs on it; an unknown model fails the task", async () => {
    const { messages } = await runLead("Consult the expert");
    const [expert, ghost] = taskResults(messages);
    expect(expert?.content).toBe("Task Succeeded. Result: Other view.");
    expect(expert?.additional_kwargs.subagent_model_name).toBe("other");
    expect(ghost?.content).toBe(
      'Task failed. Error: The sub-agent\'s model is unavailable: No model named "missing" is configured.',
    );
  });

  it("a sub-agent out of turns returns its partial answer as turn_capped", async () => {
    const { messages, custom } = await runLead("Loop forever");
    const [result] = taskResults(messages);
    expect(result?.content).toBe(
      "Task Succeeded (capped: turn budget). Result: Still working on it.",
    );
    expect(result?.additional_kwargs).toMatchObject({
      subagent_status: "completed",
      subagent_stop_reason: "turn_capped",
    });
    expect(custom.at(-1)?.type).toBe("task_completed");
  });

  it("a sub-agent past its wall-clock limit is stopped and reported timed_out", async () => {
    const { messages, custom } = await runLead("Wait for it");
    const [result] = taskResults(messages);
    expect(result?.content).toBe("Task timed out. Error: Execution timed out after 0.2 seconds");
    expect(result?.additional_kwargs).toMatchObject({
      subagent_status: "timed_out",
      subagent_error: "Execution timed out after 0.2 seconds",
    });
    expect(custom.map((event) => event.type)).toEqual(["task_started", "task_timed_out"]);
  });

  it("the sub-agent limit still drops task calls beyond the per-answer cap", async () => {
    const { messages, custom } = await runLead("Fan out", {
      subagent_enabled: true,
      max_concurrent_subagents: 2,
    });
    expect(taskResults(messages)).toHaveLength(2);
    expect(custom.filter((event) => event.type === "task_started")).toHaveLength(2);
    expect(custom.filter((event) => event.type === "task_completed")).toHaveLength(2);
  });

  it("without subagent_enabled the lead agent has no task tool", async () => {
    const { messages } = await runLead("Research the answer", {});
    const [result] = messages.filter((message) => ToolMessage.isInstance(message));
    expect(String(result?.content)).toMatch(/^Error: task is not a valid tool/);
  });
});
