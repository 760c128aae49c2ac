/**
 * `skills.deferred_discovery`: the lead agent's prompt lists enabled skills by name only, and the
 * `describe_skill` tool tells what one is for and where its SKILL.md is (enabled skills only).
 * Without the setting the prompt lists every skill in full and there is no such tool.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import { contentText } from "../../src/agent/middlewares/conversation.js";
import { SkillCatalog } from "../../src/agent/skills/skill-catalog.js";
import { MemoryDocumentStore } from "../../src/stores/memory/document-store.js";

const documents = new MemoryDocumentStore();

import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { FawnPaths } from "../../src/core/paths.js";
import type { SandboxProvider } from "../../src/sandbox/index.js";
import { LeadModelCalls, localSandboxProvider, putFile } from "../helpers/lead-model-calls.js";

const logger = createLogger({ level: "silent" });

const describeCall = (name: string) => ({ name: "describe_skill", args: { name } });
const SCRIPT = JSON.stringify([
  {
    match: "^which skill",
    turns: [
      { tool_calls: [describeCall("alpha"), describeCall("beta"), describeCall("nope")] },
      { content: "Found it." },
    ],
  },
  { turns: [{ content: "Hi." }] },
]);

describe("deferred skill discovery", () => {
  let home: string;
  let root: string;
  let provider: SandboxProvider;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-skill-deferred-"));
    root = join(home, "skill-root");
    await putFile(
      join(root, "public/alpha/SKILL.md"),
      "---\nname: alpha\ndescription: Writes alpha reports.\nallowed-tools: [ls]\n---\nBody.\n",
    );
    await putFile(
      join(root, "public/beta/SKILL.md"),
      "---\nname: beta\ndescription: The beta skill.\n---\nBody.\n",
    );
    await writeFile(join(home, "script.json"), SCRIPT);
    await new SkillCatalog({
      paths: new FawnPaths(home),
      skillsRoot: root,
      logger,
      documents,
    }).setEnabled("alice", "beta", false);
    provider = await localSandboxProvider(home);
  });

  afterAll(async () => {
    await provider?.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  async function runTurn(deferred: boolean, text: string) {
    const { config } = parseConfig(
      {
        models: [{ name: "scripted", use: "scripted", model: "s", script: "script.json" }],
        skills: { path: root, deferred_discovery: deferred },
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
      documents,
    });
    const configurable = { thread_id: `t-${deferred}-${text.length}`, user_id: "alice" };
    const agent = await factory({ config: { configurable, context: configurable } });
    const calls = new LeadModelCalls();
    let last: unknown;
    const stream = await agent.stream(
      { messages: [new HumanMessage(text)] },
      { configurable, callbacks: [calls], streamMode: "values" },
    );
    for await (const chunk of stream) last = chunk;
    const outputs = (last as { messages: BaseMessage[] }).messages
      .filter((m) => ToolMessage.isInstance(m))
      .map((m) => contentText(m.content));
    return { calls, outputs };
  }

  it("lists names only and describes an enabled skill on request", async () => {
    const { calls, outputs } = await runTurn(true, "which skill fits?");
    const prompt = calls.prompts[0] ?? "";
    expect(prompt).toContain('<skill_index>\n<skill name="alpha"/>\n</skill_index>');
    expect(prompt).not.toContain("Writes alpha reports.");
    expect(prompt).toContain("describe_skill");
    expect(calls.tools[0]).toContain("describe_skill");
    expect(outputs[0]).toBe(
      [
        "name: alpha",
        "description: Writes alpha reports.",
        "location: /mnt/skills/public/alpha/SKILL.md",
        "allowed-tools: ls",
        "Read the SKILL.md at the location with read_file before using the skill.",
      ].join("\n"),
    );
    expect(outputs[1]).toBe("Error: no enabled skill named 'beta'. Enabled skills: alpha.");
    expect(outputs[2]).toContain("no enabled skill named 'nope'");
  });

  it("without the setting, skills are listed in full and there is no describe_skill", async () => {
    const { calls } = await runTurn(false, "hello");
    expect(calls.prompts[0]).toContain("<description>Writes alpha reports.</description>");
    expect(calls.prompts[0]).not.toContain("<skill_index>");
    expect(calls.tools[0]).not.toContain("describe_skill");
  });
});
