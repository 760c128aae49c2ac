import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildZip, skillMarkdown } from "../../../../test/helpers/zip-archive.js";
import { skillInstallConfigSchema } from "../../../core/config/skills-install-schema.js";
import { createLogger } from "../../../core/logger.js";
import { FawnPaths } from "../../../core/paths.js";
import { threadSkillsViewDir } from "../../../sandbox/lifecycle/sandbox-id.js";
import { MemoryDocumentStore } from "../../../stores/memory/document-store.js";
import { skillsForRun } from "../lead-skills.js";
import { SkillCatalog } from "../skill-catalog.js";
import { syncThreadSkillsView } from "../skills-view.js";
import { CustomSkillService } from "./custom-skill-service.js";
import { MAX_SKILL_VERSIONS } from "./custom-skill-store.js";

const logger = createLogger({ level: "silent" });

describe("stored custom skills", () => {
  let home: string;
  let documents: MemoryDocumentStore;
  let catalog: SkillCatalog;
  let service: CustomSkillService;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-stored-skills-"));
    documents = new MemoryDocumentStore();
    catalog = new SkillCatalog({
      paths: new FawnPaths(home),
      skillsRoot: join(home, "no-public"),
      documents,
      logger,
    });
    service = new CustomSkillService(catalog, {
      install: skillInstallConfigSchema.parse({}),
      scan: true,
      logger,
    });
  });

  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it("keeps at most MAX_SKILL_VERSIONS versions, dropping the oldest", async () => {
    await service.create("alice", skillMarkdown("poem", "v1"));
    for (let version = 2; version <= MAX_SKILL_VERSIONS + 5; version += 1) {
      await service.edit("alice", "poem", skillMarkdown("poem", `v${version}`));
    }
    const history = await service.history("alice", "poem");
    expect(history).toHaveLength(MAX_SKILL_VERSIONS);
    expect(history[0]?.version).toBe(6);
    expect(history.at(-1)?.new_content).toBe(skillMarkdown("poem", `v${MAX_SKILL_VERSIONS + 5}`));
    await expect(service.rollback("alice", "poem", { version: 3 })).rejects.toMatchObject({
      status: 400,
    });
  });

  it("concurrent edits all land as versions, none lost", async () => {
    await service.create("alice", skillMarkdown("poem", "v1"));
    await Promise.all(
      ["a", "b", "c", "d"].map((tag) => service.edit("alice", "poem", skillMarkdown("poem", tag))),
    );
    const history = await service.history("alice", "poem");
    expect(history.map((version) => version.version)).toEqual([1, 2, 3, 4, 5]);
    // Each version's prev_content is the version before it: no edit overwrote another unseen.
    for (let i = 1; i < history.length; i += 1) {
      expect(history[i]?.prev_content).toBe(history[i - 1]?.new_content);
    }
  });

  it("a skill installed or edited is what the next run lists and projects into its sandbox", async () => {
    const archive = buildZip([
      { name: "SKILL.md", data: skillMarkdown("tool", "First.") },
      { name: "scripts/run.sh", data: "#!/bin/sh\necho hi\n", mode: 0o100755 },
    ]);
    const paths = new FawnPaths(home);
    const scope = { userId: "alice", threadId: "t1" };
    const runSkills = () =>
      skillsForRun({ catalog, paths, userId: "alice", inSandbox: true, logger });

    expect((await runSkills()).prompt).toEqual([]);
    await service.install("alice", archive);
    expect((await runSkills()).prompt).toEqual([
      { name: "tool", description: "First.", location: "/mnt/skills/custom/tool/SKILL.md" },
    ]);
    await syncThreadSkillsView(paths, scope, await catalog.enabled("alice"), logger);
    const view = threadSkillsViewDir(paths, scope);
    expect(await readFile(join(view, "custom/tool/scripts/run.sh"), "utf8")).toContain("echo hi");
    expect((await stat(join(view, "custom/tool/scripts/run.sh"))).mode & 0o100).toBe(0o100);

    await service.edit("alice", "tool", skillMarkdown("tool", "Second."));
    expect((await runSkills()).prompt[0]?.description).toBe("Second.");
    await syncThreadSkillsView(paths, scope, await catalog.enabled("alice"), logger);
    expect(await readFile(join(view, "custom/tool/SKILL.md"), "utf8")).toContain("Second.");

    // Bob's runs never see Alice's skill; a deleted skill leaves the next run's view.
    expect(
      (await skillsForRun({ catalog, paths, userId: "bob", inSandbox: true, logger })).prompt,
    ).toEqual([]);
    await service.delete("alice", "tool");
    await syncThreadSkillsView(paths, scope, await catalog.enabled("alice"), logger);
    await expect(stat(join(view, "custom/tool"))).rejects.toMatchObject({ code: "ENOENT" });
    expect(await documents.list("custom_skill_files", "alice")).toEqual([]);
    expect(await documents.list("custom_skill_versions", "alice")).toEqual([]);
  });

  it("a refused install stores nothing", async () => {
    const bad = buildZip([
      { name: "SKILL.md", data: skillMarkdown("leaky") },
      { name: "creds.txt", data: "AKIAABCDEFGHIJKLMNOP" },
    ]);
    await expect(service.install("alice", bad)).rejects.toMatchObject({ status: 400 });
    for (const collection of ["custom_skills", "custom_skill_files", "custom_skill_versions"]) {
      expect(await documents.list(collection, "alice")).toEqual([]);
    }
  });
});
