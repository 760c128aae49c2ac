/**
 * Sub-agents are told about the run's enabled skills the way the lead agent is: all of them by
 * default, only those a type lists (`custom_agents.<name>.skills`), narrowed again by
 * `agents.<name>.skills`, none with an empty list. Pure parts (registry, prompt) and a real run
 * through the factory with the local sandbox, where the sub-agent's system message is observed.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLeadAgentFactory } from "../../../src/agent/lead-agent/lead-agent-factory.js";
import { contentText } from "../../../src/agent/middlewares/conversation.js";
import type { PromptSkill } from "../../../src/agent/prompts/prompt-sections.js";
import { createSubagentRegistry } from "../../../src/agent/subagents/subagent-registry.js";
import { withSkillsPrompt } from "../../../src/agent/subagents/task-tool.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import { createLogger } from "../../../src/core/logger.js";
import type { SandboxProvider } from "../../../src/sandbox/index.js";
import { localSandboxProvider, putFile } from "../../helpers/lead-model-calls.js";

const logger = createLogger({ level: "silent" });

const SKILLS: PromptSkill[] = [
  { name: "alpha", description: "Alpha work.", location: "/mnt/skills/public/alpha/SKILL.md" },
  { name: "beta", description: "Beta work.", location: "/mnt/skills/public/beta/SKILL.md" },
];

const SUBAGENTS = {
  custom_agents: {
    researcher: { description: "researches", system_prompt: "You research.", skills: ["alpha"] },
    narrowed: {
      description: "narrowed",
      system_prompt: "You are narrowed.",
      skills: ["alpha", "beta"],
    },
  },
  agents: { "general-purpose": { skills: [] }, narrowed: { skills: ["beta", "gamma"] } },
};

describe("which skills a sub-agent type is told about", () => {
  const registry = createSubagentRegistry(SUBAGENTS, { bashAllowed: false });
  const listed = (type: string) => {
    const resolved = registry.resolve(type);
    if (!resolved) throw new Error(`no type ${type}`);
    return withSkillsPrompt(resolved, SKILLS).systemPrompt;
  };

  it("lists the type's skills after its own prompt, or leaves the prompt alone", () => {
    expect(listed("researcher")).toMatch(/^You research\.\n\n<skill_system>/);
    expect(listed("researcher")).toContain("<name>alpha</name>");
    expect(listed("researcher")).not.toContain("<name>beta</name>");
    // agents.<name>.skills narrows a custom type's own list (both must allow a skill).
    expect(listed("narrowed")).toContain("<name>beta</name>");
    expect(listed("narrowed")).not.toContain("<name>alpha</name>");
    // An empty list: no skills section at all.
    expect(listed("general-purpose")).not.toContain("<skill_system>");
    // Unset: every enabled skill.
    expect(listed("bash")).toContain("<name>alpha</name>");
    expect(listed("bash")).toContain("<name>beta</name>");
  });
});

class SystemMessages extends BaseCallbackHandler {
  name = "system_messages";
  readonly byTag = new Map<string, string>();
  override handleChatModelStart(
    _llm: unknown,
    messages: BaseMessage[][],
    _runId: string,
    _parent?: string,
    _extra?: Record<string, unknown>,
    tags?: string[],
  ): void {
    const tag = tags?.find((t) => t.startsWith("subagent:") || t === "lead_agent");
    const first = messages[0]?.[0];
    if (tag && first?.getType() === "system") this.byTag.set(tag, contentText(first.content));
  }
}

describe("a delegating run with skills (local sandbox)", () => {
  let home: string;
  let provider: SandboxProvider;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-subagent-skills-"));
    const root = join(home, "skill-root");
    await putFile(
      join(root, "public/alpha/SKILL.md"),
      "---\nname: alpha\ndescription: Alpha work.\n---\nA\n",
    );
    await putFile(
      join(root, "public/beta/SKILL.md"),
      "---\nname: beta\ndescription: Beta work.\n---\nB\n",
    );
    const task = { description: "look", prompt: "SUB research it", subagent_type: "researcher" };
    await writeFile(
      join(home, "script.json"),
      JSON.stringify([
        {
          match: "^Delegate",
          turns: [{ tool_calls: [{ name: "task", args: task }] }, { content: "ok" }],
        },
        { match: "^SUB", turns: [{ content: "researched" }] },
      ]),
    );
    provider = await localSandboxProvider(home);
  });

  afterAll(async () => {
    await provider?.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  it("the sub-agent's system message lists only its type's skills", async () => {
    const { config } = parseConfig(
      {
        models: [{ name: "scripted", use: "scripted", model: "s", script: "script.json" }],
        skills: { path: join(home, "skill-root") },
        subagents: SUBAGENTS,
        memory: { enabled: false },
        title: { enabled: false },
      },
      { env: { FAWN_HOME: home }, cwd: home },
    );
    const factory = createLeadAgentFactory({
      config,
      checkpointer: new MemorySaver(),
      baseDir: home,
      sandbox: { provider },
      logger,
    });
    const configurable = { thread_id: "t-sub", user_id: "alice", subagent_enabled: true };
    const agent = await factory({ config: { configurable, context: configurable } });
    const seen = new SystemMessages();
    const stream = await agent.stream(
      { messages: [new HumanMessage("Delegate the research")] },
      { configurable, context: configurable, callbacks: [seen], streamMode: "values" },
    );
    for await (const _chunk of stream) {
      // drain
    }
    expect(seen.byTag.get("lead_agent")).toContain("<name>beta</name>");
    const sub = seen.byTag.get("subagent:researcher") ?? "";
    expect(sub).toMatch(/^You research\./);
    expect(sub).toContain("<location>/mnt/skills/public/alpha/SKILL.md</location>");
    expect(sub).not.toContain("<name>beta</name>");
  });
});
