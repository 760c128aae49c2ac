/**
 * The `bash` sub-agent in the sandbox the lead agent uses: with the local provider it runs only
 * when host bash is allowed (refused with a clear message otherwise), and it works on the thread's
 * folders with just the shell and file tools.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { createLeadAgentFactory } from "../../../src/agent/lead-agent/lead-agent-factory.js";
import { BASH_SUBAGENT_DISABLED_MESSAGE } from "../../../src/agent/subagents/task-tool.js";
import { sandboxToolSettingsOf } from "../../../src/agent/tools/sandbox/sandbox-tool-settings.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { FawnPaths } from "../../../src/core/paths.js";
import { createSandboxProvider, type SandboxProvider } from "../../../src/sandbox/index.js";

let home: string;
let provider: SandboxProvider | undefined;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-bash-subagent-"));
});

afterEach(async () => {
  await provider?.shutdown();
  provider = undefined;
  await rm(home, { recursive: true, force: true });
});

const SCRIPT = [
  {
    match: "^Count",
    turns: [
      {
        tool_calls: [
          {
            name: "task",
            args: {
              description: "count files",
              prompt: "SHELL: count the files",
              subagent_type: "bash",
            },
          },
        ],
      },
      { content: "Counted." },
    ],
  },
  {
    match: "^SHELL",
    turns: [
      {
        tool_calls: [
          {
            name: "bash",
            args: { description: "count", command: "echo one > a.txt && ls | wc -l" },
          },
        ],
      },
      { content: "There is 1 file in the workspace." },
    ],
  },
];

async function runWithLocalSandbox(allowHostBash: boolean): Promise<ToolMessage | undefined> {
  await writeFile(join(home, "script.yaml"), stringify(SCRIPT));
  const { config } = parseConfig(
    {
      models: [{ name: "scripted", use: "scripted", model: "s", script: "script.yaml" }],
      sandbox: { use: "local", allow_host_bash: allowHostBash },
    },
    { env: { FAWN_HOME: home } },
  );
  const paths = new FawnPaths(home);
  provider = await createSandboxProvider({ config: config.sandbox, paths, skillsDir: null });
  const factory = createLeadAgentFactory({
    config,
    checkpointer: new MemorySaver(),
    baseDir: home,
    sandbox: { provider, settings: sandboxToolSettingsOf(config) },
  });
  const configurable = { thread_id: "shell-thread", subagent_enabled: true };
  const agent = await factory({ config: { configurable } });
  let messages: BaseMessage[] = [];
  for await (const state of await agent.stream(
    { messages: [new HumanMessage("Count the files")] },
    { configurable, streamMode: "values" },
  )) {
    messages = (state as { messages: BaseMessage[] }).messages;
  }
  return messages.find(
    (message): message is ToolMessage => ToolMessage.isInstance(message) && message.name === "task",
  );
}

describe("bash sub-agent", () => {
  it("is refused on the local provider while host bash is off", async () => {
    const result = await runWithLocalSandbox(false);
    expect(result?.content).toBe(`Task failed. Error: ${BASH_SUBAGENT_DISABLED_MESSAGE}`);
    expect(result?.additional_kwargs.subagent_status).toBe("failed");
  });

  it("runs its commands in the thread's sandbox when host bash is allowed", async () => {
    const result = await runWithLocalSandbox(true);
    expect(result?.content).toBe("Task Succeeded. Result: There is 1 file in the workspace.");
    const workspace = new FawnPaths(home).threadPaths({
      userId: "default",
      threadId: "shell-thread",
    }).workspaceDir;
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("one\n");
  });
});
