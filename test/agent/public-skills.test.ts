/**
 * The public skills shipped with Fawn, each followed in a real lead-agent run (the factory
 * `fawn serve` uses, the scripted model, the local sandbox with host bash and bubblewrap where it
 * works): the model reads the
 * skill's SKILL.md from `/mnt/skills/public/…`, runs its bundled helper script the way the skill
 * says, writes the file the skill names and presents it. The helper's verdict and the delivered
 * file are checked, so a broken script or a SKILL.md pointing at a wrong path fails here.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import { contentText } from "../../src/agent/middlewares/conversation.js";
import { skillCatalogFromConfig } from "../../src/agent/skills/skill-catalog.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { sandboxConfigSchema } from "../../src/core/config/schema.js";
import { createLogger } from "../../src/core/logger.js";
import { FawnPaths } from "../../src/core/paths.js";
import type { AgentFactory } from "../../src/ports/agent.js";
import { createSandboxProvider, type SandboxProvider } from "../../src/sandbox/index.js";
import { requireBwrap } from "../sandbox/helpers/require-bwrap.js";
import { PUBLIC_SKILL_RUNS, type SkillRun } from "./helpers/public-skill-runs.js";

const KINDS: Array<"local" | "bwrap"> = (await requireBwrap()) ? ["local", "bwrap"] : ["local"];

const logger = createLogger({ level: "silent" });
const USER = "alice";

/** One script entry per skill: read SKILL.md, the skill's own steps, present, answer. */
function scriptFor(runs: readonly SkillRun[]): string {
  return stringify(
    runs.map((run) => ({
      match: `^use ${run.skill}$`,
      turns: [
        {
          tool_calls: [
            {
              name: "read_file",
              args: { description: "skill", path: `/mnt/skills/public/${run.skill}/SKILL.md` },
            },
          ],
        },
        ...run.steps.map((step) => ({ tool_calls: [step] })),
        { tool_calls: [{ name: "present_files", args: { filepaths: [run.output] } }] },
        { content: `Done: ${run.output}` },
      ],
    })),
  );
}

describe.each(KINDS)("public skills on the %s sandbox", (kind) => {
  let home: string;
  let provider: SandboxProvider;
  let factory: AgentFactory;
  let paths: FawnPaths;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), `fawn-public-skills-${kind}-`));
    await writeFile(join(home, "script.yaml"), scriptFor(PUBLIC_SKILL_RUNS));
    const { config } = parseConfig(
      {
        models: [{ name: "scripted", use: "scripted", model: "s", script: "script.yaml" }],
        memory: { enabled: false },
        title: { enabled: false },
      },
      { env: { FAWN_HOME: home }, cwd: home },
    );
    paths = new FawnPaths(home);
    provider = await createSandboxProvider({
      config: sandboxConfigSchema.parse({ use: kind, allow_host_bash: true }),
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
    });
  });

  afterAll(async () => {
    await provider?.shutdown();
    await rm(home, { recursive: true, force: true });
  });

  async function runSkill(run: SkillRun) {
    const threadId = `t-${run.skill}`;
    const configurable = { thread_id: threadId, user_id: USER };
    const agent = await factory({ config: { configurable, context: configurable } });
    let last: unknown;
    const stream = await agent.stream(
      { messages: [new HumanMessage(`use ${run.skill}`)] },
      { configurable, streamMode: "values" },
    );
    for await (const chunk of stream) last = chunk;
    const state = last as { messages: BaseMessage[]; artifacts?: string[] };
    const outputs = state.messages
      .filter((m) => ToolMessage.isInstance(m))
      .map((m) => contentText(m.content));
    const hostOutput = paths.resolveVirtualPath({ userId: USER, threadId }, run.output);
    return { outputs, artifacts: state.artifacts ?? [], file: await readFile(hostOutput, "utf8") };
  }

  it("the shipped public skills are all valid and listed", async () => {
    const { config } = parseConfig({}, { env: { FAWN_HOME: home }, cwd: home });
    const names = (await skillCatalogFromConfig(config, { logger }).list(USER)).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(PUBLIC_SKILL_RUNS.map((run) => run.skill)));
  });

  for (const run of PUBLIC_SKILL_RUNS) {
    it(`${run.skill}: the model loads the skill, follows it and delivers ${run.output}`, async () => {
      const { outputs, artifacts, file } = await runSkill(run);
      expect(outputs[0]).toContain(`name: ${run.skill}`);
      // No step was refused: every tool the skill uses is one it allows.
      for (const output of outputs) expect(output).not.toMatch(/^Error/);
      run.check({ outputs, file });
      expect(artifacts).toEqual([run.output]);
    });
  }
});
