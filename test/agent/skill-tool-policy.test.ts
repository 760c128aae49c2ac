/**
 * A skill's `allowed-tools` scopes the lead agent's tools once the skill is active in a run (the
 * factory `fawn serve` uses, the scripted model, the local sandbox): slash activation or a
 * successful `read_file` of its SKILL.md. Tools outside the policy are not offered to the model,
 * and a call to one anyway is refused without running. Merely enabled skills restrict nothing; a
 * skill without the field lifts nothing; slash activation is not widened by reading another skill;
 * the next run without the command is unrestricted again.
 */
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import { contentText } from "../../src/agent/middlewares/conversation.js";
import { allowedToolsFor } from "../../src/agent/skills/skill-tool-policy.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import type { AgentFactory } from "../../src/ports/agent.js";
import type { SandboxProvider } from "../../src/sandbox/index.js";
import { LeadModelCalls, localSandboxProvider, putFile } from "../helpers/lead-model-calls.js";

const logger = createLogger({ level: "silent" });

const write = (path: string) => ({
  name: "write_file",
  args: { description: "write", path, content: "x" },
});
const SCRIPT = JSON.stringify([
  {
    match: "^/scoped",
    turns: [
      { tool_calls: [write("/mnt/user-data/outputs/slash.txt")] },
      {
        tool_calls: [
          {
            name: "read_file",
            args: { description: "wide", path: "/mnt/skills/public/wide/SKILL.md" },
          },
        ],
      },
      { tool_calls: [write("/mnt/user-data/outputs/slash-after-read.txt")] },
      { content: "done" },
    ],
  },
  {
    match: "^read scoped",
    turns: [
      {
        tool_calls: [
          {
            name: "read_file",
            args: { description: "scoped", path: "/mnt/skills/public/scoped/SKILL.md" },
          },
        ],
      },
      { tool_calls: [write("/mnt/user-data/outputs/read.txt")] },
      { content: "done" },
    ],
  },
  {
    match: "^read open",
    turns: [
      {
        tool_calls: [
          {
            name: "read_file",
            args: { description: "open", path: "/mnt/skills/public/open/SKILL.md" },
          },
        ],
      },
      { tool_calls: [write("/mnt/user-data/outputs/open.txt")] },
      { content: "done" },
    ],
  },
  { turns: [{ tool_calls: [write("/mnt/user-data/outputs/plain.txt")] }, { content: "done" }] },
]);

describe("skill tool policy (allowed-tools) in a lead-agent run", () => {
  let home: string;
  let provider: SandboxProvider;
  let factory: AgentFactory;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-skill-policy-"));
    const root = join(home, "skill-root");
    await putFile(
      join(root, "public/scoped/SKILL.md"),
      "---\nname: scoped\ndescription: Lists only.\nallowed-tools: [ls]\n---\nOnly list files.\n",
    );
    await putFile(
      join(root, "public/wide/SKILL.md"),
      "---\nname: wide\ndescription: Writes.\nallowed-tools: [ls, write_file, bash]\n---\nWrite.\n",
    );
    await putFile(
      join(root, "public/open/SKILL.md"),
      "---\nname: open\ndescription: No declaration.\n---\nAnything.\n",
    );
    await writeFile(join(home, "script.json"), SCRIPT);
    const { config } = parseConfig(
      {
        models: [{ name: "scripted", use: "scripted", model: "s", script: "script.json" }],
        skills: { path: root },
        memory: { enabled: false },
        title: { enabled: false },
      },
      { env: { FAWN_HOME: home }, cwd: home },
    );
    provider = await localSandboxProvider(home);
    factory = createLeadAgentFactory({
      config,
      checkpointer: new MemorySaver(),
      baseDir: home,
      sandbox: { provider },
      logger,
    });
  });

  afterAll(async () => {
    await provider?.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  async function runTurn(threadId: string, text: string) {
    const configurable = { thread_id: threadId, user_id: "alice" };
    const agent = await factory({ config: { configurable, context: configurable } });
    const bound = new LeadModelCalls();
    let last: unknown;
    const stream = await agent.stream(
      { messages: [new HumanMessage(text)] },
      { configurable, callbacks: [bound], streamMode: "values" },
    );
    for await (const chunk of stream) last = chunk;
    const messages = (last as { messages: BaseMessage[] }).messages;
    const outputs = messages
      .filter((m) => ToolMessage.isInstance(m))
      .map((m) => contentText(m.content));
    return { bound: bound.tools, outputs };
  }

  const outputFile = (threadId: string, name: string) =>
    join(home, "users/alice/threads", threadId, "user-data/outputs", name);
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );

  it("merely enabled skills restrict nothing", async () => {
    const { bound, outputs } = await runTurn("t-plain", "just write");
    expect(bound[0]).toEqual(expect.arrayContaining(["bash", "write_file", "ls", "read_file"]));
    expect(outputs[0]).not.toMatch(/^Error/);
    expect(await exists(outputFile("t-plain", "plain.txt"))).toBe(true);
  });

  it("a slash-activated skill scopes the run; reading a wider skill does not widen it", async () => {
    const { bound, outputs } = await runTurn("t-slash", "/scoped go");
    for (const call of bound) expect(call).toEqual(["ls", "read_file"]);
    // (describe_skill is always allowed but only offered with deferred discovery.)
    expect(outputs[0]).toContain(
      "Error: Tool 'write_file' is not allowed by the active skill policy",
    );
    expect(outputs[0]).toContain("active skills: scoped");
    expect(outputs[1]).toContain("Write.");
    expect(outputs[2]).toContain("not allowed by the active skill policy");
    expect(await exists(outputFile("t-slash", "slash.txt"))).toBe(false);
    expect(await exists(outputFile("t-slash", "slash-after-read.txt"))).toBe(false);

    // The next run of the thread, without the command, is unrestricted again.
    const next = await runTurn("t-slash", "write again");
    expect(next.bound[0]).toContain("write_file");
    expect(await exists(outputFile("t-slash", "plain.txt"))).toBe(true);
  });

  it("reading a skill's SKILL.md activates its policy for the rest of the run", async () => {
    const { bound, outputs } = await runTurn("t-read", "read scoped");
    expect(bound[0]).toContain("write_file");
    expect(bound[1]).toEqual(["ls", "read_file"]);
    expect(outputs[0]).toContain("Only list files.");
    expect(outputs[1]).toContain("not allowed by the active skill policy");
    expect(await exists(outputFile("t-read", "read.txt"))).toBe(false);
  });

  it("a skill without allowed-tools scopes nothing when it is the only one active", async () => {
    const { bound, outputs } = await runTurn("t-open", "read open");
    expect(bound[1]).toContain("write_file");
    expect(outputs[1]).not.toMatch(/^Error/);
    expect(await exists(outputFile("t-open", "open.txt"))).toBe(true);
  });
});

describe("allowedToolsFor", () => {
  const skill = (allowedTools: string[] | null) => ({
    name: "s",
    description: "d",
    license: null,
    allowedTools,
    requiredSecrets: [],
    category: "public" as const,
    relativeDir: "s",
    hostDir: "/x",
    enabled: true,
  });

  it("is null without a declaring skill, else the union plus read_file and describe_skill", () => {
    expect(allowedToolsFor([])).toBeNull();
    expect(allowedToolsFor([skill(null)])).toBeNull();
    expect([...(allowedToolsFor([skill([]), skill(null)]) ?? [])].sort()).toEqual([
      "describe_skill",
      "read_file",
    ]);
    expect([...(allowedToolsFor([skill(["ls"]), skill(["bash", "ls"])]) ?? [])].sort()).toEqual([
      "bash",
      "describe_skill",
      "ls",
      "read_file",
    ]);
  });
});
