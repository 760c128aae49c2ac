/**
 * Skills in a real lead-agent run (the factory `fawn serve` uses, the scripted model, the local
 * sandbox provider, and bubblewrap where it works): the system prompt lists exactly the user's
 * enabled skills with their SKILL.md container paths; the sandbox sees
 * `/mnt/skills/public/<name>/SKILL.md` of an enabled skill, read-only, and not of a disabled one,
 * and a switch applies from the next run on the same (warm) sandbox; `/skill-name` in the user's
 * message brings that skill's SKILL.md into the model request.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import { contentText } from "../../src/agent/middlewares/conversation.js";
import { SkillCatalog } from "../../src/agent/skills/skill-catalog.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { createLogger } from "../../src/core/logger.js";
import { FawnPaths } from "../../src/core/paths.js";
import type { AgentFactory } from "../../src/ports/agent.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/sandbox/index.js";
import { MemoryDocumentStore } from "../../src/stores/memory/document-store.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { requireBwrap } from "../sandbox/helpers/require-bwrap.js";

const KINDS: Array<"local" | "bwrap"> = (await requireBwrap()) ? ["local", "bwrap"] : ["local"];

const logger = createLogger({ level: "silent" });
const ALPHA_BODY = "Alpha instructions: always write the word PINEAPPLE.";

const SCRIPT = `
- match: "^read the skills"
  turns:
    - tool_calls:
        - name: read_file
          args: { description: alpha, path: /mnt/skills/public/alpha/SKILL.md }
        - name: read_file
          args: { description: beta, path: /mnt/skills/public/beta/SKILL.md }
        - name: ls
          args: { description: list, path: /mnt/skills }
        - name: write_file
          args: { description: tamper, path: /mnt/skills/public/alpha/SKILL.md, content: x }
    - content: "Read them."
- turns:
    - content: "Plain answer."
`;

class SystemPrompts extends BaseCallbackHandler {
  name = "system_prompts";
  readonly lead: string[] = [];
  override handleChatModelStart(
    _llm: unknown,
    messages: BaseMessage[][],
    _runId: string,
    _parent?: string,
    _extra?: Record<string, unknown>,
    tags?: string[],
  ): void {
    if (!tags?.includes("lead_agent")) return;
    const first = messages[0]?.[0];
    this.lead.push(first?.getType() === "system" ? contentText(first.content) : "");
  }
}

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

function toolOutputs(messages: readonly BaseMessage[]): string[] {
  return messages.filter((m) => ToolMessage.isInstance(m)).map((m) => contentText(m.content));
}

describe.each(KINDS)("skills in a lead-agent run on the %s sandbox", (kind) => {
  let home: string;
  let provider: SandboxProvider;
  let catalog: SkillCatalog;
  let factory: AgentFactory;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), `fawn-skills-agent-${kind}-`));
    const root = join(home, "skill-root");
    await put(
      join(root, "public/alpha/SKILL.md"),
      `---\nname: alpha\ndescription: The alpha skill.\n---\n${ALPHA_BODY}\n`,
    );
    await put(
      join(root, "public/beta/SKILL.md"),
      "---\nname: beta\ndescription: The beta skill.\n---\nBeta body.\n",
    );
    await put(join(root, "public/bad/SKILL.md"), "---\nname: Bad Skill\ndescription: x\n---\n");
    await put(
      join(home, "users/alice/skills/custom/gamma/SKILL.md"),
      "---\nname: gamma\ndescription: Alice's own skill.\n---\nGamma body.\n",
    );
    await writeFile(join(home, "script.yaml"), SCRIPT);
    const { config } = parseConfig(
      {
        models: [{ name: "scripted", use: "scripted", model: "s", script: "script.yaml" }],
        skills: { path: root },
        memory: { enabled: false },
        title: { enabled: false },
      },
      { env: { FAWN_HOME: home }, cwd: home },
    );
    const paths = new FawnPaths(home);
    const documents = new MemoryDocumentStore();
    catalog = new SkillCatalog({ paths, skillsRoot: root, logger, documents });
    provider = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: kind }),
      paths,
      skillsDir: null,
      logger,
    });
    factory = createLeadAgentFactory({
      config,
      checkpointer: new MemorySaver(),
      baseDir: home,
      sandbox: { provider },
      logger,
      documents,
    });
  });

  afterAll(async () => {
    await provider?.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  async function runTurn(threadId: string, userId: string, text: string) {
    const configurable = { thread_id: threadId, user_id: userId };
    const agent = await factory({ config: { configurable, context: configurable } });
    const prompts = new SystemPrompts();
    let last: unknown;
    const stream = await agent.stream(
      { messages: [new HumanMessage(text)] },
      { configurable, callbacks: [prompts], streamMode: "values" },
    );
    for await (const chunk of stream) last = chunk;
    const messages = (last as { messages: BaseMessage[] }).messages;
    return { prompts: prompts.lead, messages };
  }

  it("lists only enabled skills; the sandbox shows an enabled SKILL.md and hides a disabled one", async () => {
    await catalog.setEnabled("alice", "beta", false);
    const { prompts, messages } = await withBlockingIoGate(() =>
      runTurn("t-skills", "alice", "read the skills"),
    );
    const prompt = prompts[0] ?? "";
    expect(prompt).toContain(
      "<skill><name>alpha</name><description>The alpha skill.</description><location>/mnt/skills/public/alpha/SKILL.md</location></skill>",
    );
    expect(prompt).toContain("<location>/mnt/skills/custom/gamma/SKILL.md</location>");
    expect(prompt).not.toContain("<name>beta</name>");
    expect(prompt).not.toContain("Bad Skill");
    expect(prompt).toContain("read its SKILL.md");

    const [alpha, beta, listing, tamper] = toolOutputs(messages);
    expect(alpha).toContain(ALPHA_BODY);
    expect(beta).toMatch(/^Error/);
    expect(listing).toContain("/mnt/skills/public/alpha");
    expect(listing).toContain("/mnt/skills/custom/gamma");
    expect(listing).not.toContain("beta");
    expect(tamper).toMatch(/^Error/);
  });

  it("a switch flipped between runs applies to the next run of the same thread", async () => {
    await catalog.setEnabled("alice", "beta", true);
    await catalog.setEnabled("alice", "alpha", false);
    const { prompts, messages } = await runTurn("t-skills", "alice", "read the skills again");
    expect(prompts[0]).toContain("<name>beta</name>");
    expect(prompts[0]).not.toContain("<name>alpha</name>");
    const outputs = toolOutputs(messages).slice(-4);
    expect(outputs[0]).toMatch(/^Error/);
    expect(outputs[1]).toContain("Beta body.");
    await catalog.setEnabled("alice", "alpha", true);
  });

  it("another user sees the public skills but not Alice's custom one", async () => {
    const { prompts } = await runTurn("t-bob", "bob", "hello");
    expect(prompts[0]).toContain("<name>alpha</name>");
    expect(prompts[0]).not.toContain("gamma");
  });

  it("/skill-name injects that skill's SKILL.md into the model request; disabled and reserved names do not", async () => {
    const activated = await runTurn("t-slash", "alice", "/alpha write me a haiku");
    const prompt = activated.prompts[0] ?? "";
    expect(prompt).toMatch(
      /<activated_skill name="alpha" category="public" path="\/mnt\/skills\/public\/alpha\/SKILL.md" sha256="[0-9a-f]{64}">/,
    );
    expect(prompt).toContain(ALPHA_BODY);
    // Request-only: nothing of it is stored in the thread.
    expect(JSON.stringify(activated.messages.map((m) => m.content))).not.toContain(ALPHA_BODY);

    await catalog.setEnabled("alice", "beta", false);
    const disabled = await runTurn("t-slash-2", "alice", "/beta do it");
    expect(disabled.prompts[0]).not.toContain("<activated_skill");
    const reserved = await runTurn("t-slash-3", "alice", "/help");
    expect(reserved.prompts[0]).not.toContain("<activated_skill");
    const custom = await runTurn("t-slash-4", "alice", "/gamma go");
    expect(custom.prompts[0]).toContain('<activated_skill name="gamma" category="custom"');
    expect(custom.prompts[0]).toContain("Gamma body.");
  });
});
