/**
 * Skills without an agent: SKILL.md frontmatter validation (the reference's rules, as a table),
 * discovery skipping invalid packages and honouring package boundaries, the shipped public
 * skills being valid, per-user enabled switches persisted atomically, the slash-command grammar,
 * and the thread's skills view holding exactly the enabled skills.
 */
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BUNDLED_SKILLS_DIR,
  SkillCatalog,
  skillCatalogFromConfig,
} from "../../src/agent/skills/skill-catalog.js";
import { parseSkillMarkdown } from "../../src/agent/skills/skill-frontmatter.js";
import { syncThreadSkillsView } from "../../src/agent/skills/skills-view.js";
import { parseSlashSkill, resolveSlashSkill } from "../../src/agent/skills/slash-activation.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { createLogger } from "../../src/core/logger.js";
import { FawnPaths } from "../../src/core/paths.js";
import { threadSkillsViewDir } from "../../src/sandbox/lifecycle/sandbox-id.js";
import { MemoryDocumentStore } from "../../src/stores/memory/document-store.js";

const logger = createLogger({ level: "silent" });

function skillMd(frontmatter: string, body = "Do the work.\n"): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

describe("SKILL.md validation", () => {
  const valid: Array<[string, string]> = [
    ["minimal", "name: my-skill\ndescription: Does things."],
    ["digits and hyphens", "name: pdf-2-text\ndescription: Converts."],
    ["64-character name", `name: ${"a".repeat(64)}\ndescription: Long name.`],
    ["1024-character description", `name: x\ndescription: ${"d".repeat(1024)}`],
    [
      "every allowed key",
      [
        "name: full",
        "description: All keys.",
        "license: MIT",
        "allowed-tools: [bash, read_file]",
        "required-secrets: [API_TOKEN, {name: OTHER, optional: true}]",
        "secrets-autonomous: false",
        "metadata: {team: docs}",
        "compatibility: fawn",
        "version: 1.2.0",
        "author: Someone",
      ].join("\n"),
    ],
    ["empty allowed-tools (a no-tool skill)", "name: x\ndescription: d\nallowed-tools: []"],
    ["CRLF line endings", "name: crlf\r\ndescription: Windows."],
  ];
  it.each(valid)("accepts %s", (_label, frontmatter) => {
    const result = parseSkillMarkdown(skillMd(frontmatter));
    expect(result.ok ? null : result.reason).toBeNull();
  });

  const invalid: Array<[string, string, string | RegExp]> = [
    ["no frontmatter", "", /No YAML frontmatter/],
    ["broken YAML", "name: [unclosed\ndescription: d", /Invalid YAML/],
    ["a list instead of a mapping", "- name\n- description", /must be a YAML mapping/],
    ["unknown key", "name: x\ndescription: d\nowner: me", /Unexpected key\(s\).*owner/],
    ["missing name", "description: d", /Missing 'name'/],
    ["missing description", "name: x", /Missing 'description'/],
    ["numeric name", "name: 42\ndescription: d", /Name must be a string/],
    ["upper case", "name: My-Skill\ndescription: d", /hyphen-case/],
    ["underscore", "name: my_skill\ndescription: d", /hyphen-case/],
    ["leading hyphen", "name: -skill\ndescription: d", /start\/end with hyphen/],
    ["trailing hyphen", "name: skill-\ndescription: d", /start\/end with hyphen/],
    ["double hyphen", "name: my--skill\ndescription: d", /consecutive hyphens/],
    ["65-character name", `name: ${"a".repeat(65)}\ndescription: d`, /too long \(65/],
    ["angle brackets", "name: x\ndescription: Use <b>bold</b>", /angle brackets/],
    ["1025-character description", `name: x\ndescription: ${"d".repeat(1025)}`, /too long/],
    ["empty description", 'name: x\ndescription: "  "', /cannot be empty/],
    ["allowed-tools not a list", "name: x\ndescription: d\nallowed-tools: bash", /must be a list/],
    ["allowed-tools with a number", "name: x\ndescription: d\nallowed-tools: [1]", /only strings/],
    ["allowed-tools with a blank", 'name: x\ndescription: d\nallowed-tools: [" "]', /empty tool/],
    ["required-secrets not a list", "name: x\ndescription: d\nrequired-secrets: K", /be a list/],
    [
      "secrets-autonomous not a boolean",
      "name: x\ndescription: d\nsecrets-autonomous: yes please",
      /boolean/,
    ],
  ];
  it.each(invalid)("rejects %s", (_label, frontmatter, reason) => {
    const result = parseSkillMarkdown(
      frontmatter === "" ? "# no frontmatter\n" : skillMd(frontmatter),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it("reads the declared tools and secrets; a secret with a bad name is dropped, not fatal", () => {
    const result = parseSkillMarkdown(
      skillMd(
        'name: s\ndescription: d\nallowed-tools: [" bash "]\nrequired-secrets: [A_KEY, "bad-name", {name: B, optional: true}, A_KEY]',
      ),
    );
    if (!result.ok) throw new Error(result.reason);
    expect(result.manifest.allowedTools).toEqual(["bash"]);
    expect(result.manifest.requiredSecrets).toEqual([
      { name: "A_KEY", optional: false },
      { name: "B", optional: true },
    ]);
    expect(result.body).toBe("Do the work.\n");
  });
});

describe("skill catalog", () => {
  let home: string;
  let root: string;
  let catalog: SkillCatalog;
  let documents: MemoryDocumentStore;

  async function put(path: string, text: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "fawn-skills-"));
    root = join(home, "skill-root");
    documents = new MemoryDocumentStore();
    catalog = new SkillCatalog({ paths: new FawnPaths(home), skillsRoot: root, logger, documents });
    await put(join(root, "public/alpha/SKILL.md"), skillMd("name: alpha\ndescription: First."));
    await put(join(root, "public/alpha/nested/SKILL.md"), skillMd("name: inner\ndescription: No."));
    await put(join(root, "public/team/beta/SKILL.md"), skillMd("name: beta\ndescription: Two."));
    await put(join(root, "public/broken/SKILL.md"), skillMd("name: Broken_Name\ndescription: d"));
    await put(join(root, "public/.hidden/SKILL.md"), skillMd("name: hidden\ndescription: d"));
    await put(join(root, "public/no-skill/README.md"), "not a skill\n");
  });

  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it("finds valid packages, skips invalid and hidden ones, and stops at package boundaries", async () => {
    const skills = await catalog.list("alice");
    expect(skills.map((skill) => [skill.name, skill.category, skill.relativeDir])).toEqual([
      ["alpha", "public", "alpha"],
      ["beta", "public", "team/beta"],
    ]);
    expect(skills.every((skill) => skill.enabled)).toBe(true);
    const beta = skills.find((skill) => skill.name === "beta");
    expect(beta && catalog.containerFile(beta)).toBe("/mnt/skills/public/team/beta/SKILL.md");
  });

  it("adds the user's own custom skills, only for that user; a custom skill shadows a public one", async () => {
    const custom = join(home, "users/alice/skills/custom");
    await put(join(custom, "mine/SKILL.md"), skillMd("name: mine\ndescription: Alice's."));
    await put(join(custom, "alpha/SKILL.md"), skillMd("name: alpha\ndescription: Alice's alpha."));
    const alice = await catalog.list("alice");
    expect(alice.map((skill) => `${skill.category}:${skill.name}`)).toEqual([
      "custom:alpha",
      "public:beta",
      "custom:mine",
    ]);
    expect((await catalog.list("bob")).map((skill) => skill.name)).toEqual(["alpha", "beta"]);
  });

  it("persists a switch per user in the document store; unknown names are 404", async () => {
    await catalog.setEnabled("alice", "beta", false);
    const reopened = new SkillCatalog({
      paths: new FawnPaths(home),
      skillsRoot: root,
      logger,
      documents,
    });
    expect((await reopened.enabled("alice")).map((skill) => skill.name)).toEqual(["alpha"]);
    expect((await reopened.enabled("bob")).map((skill) => skill.name)).toEqual(["alpha", "beta"]);
    expect((await documents.list("skill_state", "alice")).map((d) => [d.key, d.value])).toEqual([
      ["beta", { enabled: false }],
    ]);
    await reopened.setEnabled("alice", "beta", true);
    expect((await catalog.enabled("alice")).map((skill) => skill.name)).toEqual(["alpha", "beta"]);
    expect(await documents.list("skill_state", "alice")).toEqual([]);
    await expect(catalog.setEnabled("alice", "nope", false)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("imports an earlier state.json once, keeping switches already stored", async () => {
    const stateDir = join(home, "users/alice/skills");
    await put(
      join(stateDir, "state.json"),
      JSON.stringify({
        version: 1,
        skills: { alpha: { enabled: false }, beta: { enabled: true } },
      }),
    );
    expect((await catalog.enabled("alice")).map((skill) => skill.name)).toEqual(["beta"]);
    expect((await readdir(stateDir)).sort()).toEqual(["state.json.imported"]);
    // A second catalog (another process) finds the file gone and the switch in the store.
    const other = new SkillCatalog({
      paths: new FawnPaths(home),
      skillsRoot: root,
      logger,
      documents,
    });
    expect((await other.enabled("alice")).map((skill) => skill.name)).toEqual(["beta"]);
  });

  it("concurrent switches of one user all land", async () => {
    await Promise.all([
      catalog.setEnabled("alice", "alpha", false),
      catalog.setEnabled("alice", "beta", false),
    ]);
    expect(await catalog.enabled("alice")).toEqual([]);
  });

  it("a damaged state file disables nothing and is not imported", async () => {
    await put(join(home, "users/alice/skills/state.json"), "{not json");
    expect((await catalog.enabled("alice")).map((skill) => skill.name)).toEqual(["alpha", "beta"]);
  });

  it("the shipped public skills are all valid and the default catalog finds them", async () => {
    const { config } = parseConfig({}, { env: { FAWN_HOME: home }, cwd: home });
    const shipped = await skillCatalogFromConfig(config, { logger }).list("default");
    expect(shipped.map((skill) => skill.name)).toEqual([
      "chart-making",
      "code-review",
      "data-analysis",
      "deep-research",
      "report-writing",
      "slide-deck",
      "web-page",
    ]);
    expect(shipped.every((skill) => skill.category === "public")).toBe(true);
    expect(BUNDLED_SKILLS_DIR.endsWith("skills")).toBe(true);
  });

  it("the thread's skills view holds exactly the enabled skills, updated in place", async () => {
    const paths = new FawnPaths(home);
    const scope = { userId: "alice", threadId: "t-view" };
    await put(join(root, "public/alpha/scripts/run.sh"), "#!/bin/sh\necho hi\n");
    await chmod(join(root, "public/alpha/scripts/run.sh"), 0o755);
    await symlink("/etc/hostname", join(root, "public/alpha/leak"));
    const view = threadSkillsViewDir(paths, scope);

    const first = await syncThreadSkillsView(paths, scope, await catalog.enabled("alice"), logger);
    // The symlink is not followed: no host file reaches the view.
    expect(first).toEqual({ written: 4, removed: 0 });
    expect(await listFiles(view)).toEqual([
      "public/alpha/SKILL.md",
      "public/alpha/nested/SKILL.md",
      "public/alpha/scripts/run.sh",
      "public/team/beta/SKILL.md",
    ]);
    expect((await stat(join(view, "public/alpha/scripts/run.sh"))).mode & 0o100).toBe(0o100);
    const inode = (await stat(view)).ino;

    await catalog.setEnabled("alice", "beta", false);
    const second = await syncThreadSkillsView(paths, scope, await catalog.enabled("alice"), logger);
    expect(second).toEqual({ written: 0, removed: 1 });
    expect(await listFiles(view)).toEqual([
      "public/alpha/SKILL.md",
      "public/alpha/nested/SKILL.md",
      "public/alpha/scripts/run.sh",
    ]);
    // The folder a running sandbox bind-mounted is the same folder.
    expect((await stat(view)).ino).toBe(inode);

    await writeFile(join(view, "public/alpha/SKILL.md"), "tampered");
    await syncThreadSkillsView(paths, scope, await catalog.enabled("alice"), logger);
    expect(await readFile(join(view, "public/alpha/SKILL.md"), "utf8")).toContain("name: alpha");

    await syncThreadSkillsView(paths, scope, [], logger);
    expect(await listFiles(view)).toEqual([]);

    // A cancelled run (or one a shutdown interrupts) writes nothing more into the view.
    const stopped = new AbortController();
    stopped.abort(new Error("run cancelled"));
    await expect(
      syncThreadSkillsView(paths, scope, await catalog.enabled("alice"), logger, stopped.signal),
    ).rejects.toThrow("run cancelled");
    expect(await listFiles(view)).toEqual([]);
  });
});

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(dir, rel)));
    else files.push(rel);
  }
  return files;
}

describe("slash activation grammar", () => {
  it.each([
    [
      "/report-writing summarize the notes",
      { name: "report-writing", rest: "summarize the notes" },
    ],
    ["/alpha", { name: "alpha", rest: "" }],
    ["  /alpha\n do it", { name: "alpha", rest: "do it" }],
    ["/a1-b2 x", { name: "a1-b2", rest: "x" }],
  ])("parses %j", (text, expected) => {
    expect(parseSlashSkill(text)).toEqual(expected);
  });

  it.each([
    "please /alpha",
    "/Alpha x",
    "/alpha-",
    "/-alpha",
    "/al--pha",
    "/alpha/x",
    "/ alpha",
    "/help me",
    "/memory",
    "/new",
    "/status",
    "/models",
    "/goal x",
    "/bootstrap",
  ])("does not activate on %j", (text) => {
    expect(parseSlashSkill(text)).toBeNull();
  });

  it("resolves only enabled skills", () => {
    const skill = {
      name: "alpha",
      description: "d",
      license: null,
      allowedTools: null,
      requiredSecrets: [],
      category: "public" as const,
      relativeDir: "alpha",
      hostDir: "/x",
      enabled: true,
    };
    expect(resolveSlashSkill("/alpha go", [skill])?.rest).toBe("go");
    expect(resolveSlashSkill("/beta go", [skill])).toBeNull();
  });
});

describe("skills: and memory: config sections", () => {
  const env = { FAWN_HOME: "/tmp/fawn-config-check" };

  it("fills the defaults and refuses what Fawn cannot honour, naming the key", () => {
    const { config } = parseConfig({}, { env });
    expect(config.skills).toMatchObject({
      container_path: "/mnt/skills",
      deferred_discovery: false,
    });
    expect(config.memory.enabled).toBe(true);
    expect(config.memory.debounce_seconds).toBe(30);
    expect(() => parseConfig({ skills: { container_path: "/opt/skills" } }, { env })).toThrow(
      /skills\.container_path/,
    );
    expect(parseConfig({ memory: { mode: "tool" } }, { env }).config.memory.mode).toBe("tool");
    expect(() => parseConfig({ memory: { mode: "vector" } }, { env })).toThrow(/memory\.mode/);
    expect(() => parseConfig({ memory: { fact_confidence_threshold: 2 } }, { env })).toThrow(
      /memory\.fact_confidence_threshold/,
    );
  });

  it("reads skills.install limits and the reference's skill_scan without warnings", () => {
    const { config, warnings } = parseConfig(
      { skills: { install: { max_files: 10 } }, skill_scan: { enabled: false } },
      { env },
    );
    expect(warnings).toEqual([]);
    expect(config.skills.install).toMatchObject({
      max_files: 10,
      max_total_bytes: 8 * 1024 * 1024,
    });
    expect(config.skill_scan.enabled).toBe(false);
    expect(parseConfig({}, { env }).config.skill_scan.enabled).toBe(true);
    // A skill is one database document: more than 10 MiB unpacked cannot be stored.
    expect(() =>
      parseConfig({ skills: { install: { max_total_bytes: 64 * 1024 * 1024 } } }, { env }),
    ).toThrow(/skills\.install\.max_total_bytes/);
  });

  it("reads a reference config's memory section, backend_config knobs included", () => {
    const { config, warnings } = parseConfig(
      {
        memory: {
          enabled: true,
          mode: "middleware",
          injection_enabled: false,
          manager_class: "deermem",
          backend_config: { debounce_seconds: 10 },
        },
        skills: { path: "skills", container_path: "/mnt/skills" },
      },
      { env },
    );
    expect(config.memory.injection_enabled).toBe(false);
    expect(config.memory.debounce_seconds).toBe(10);
    expect(config.memory.manager_class).toBe("deermem");
    expect(config.skills.path).toBe("skills");
    expect(warnings).toEqual([]);
  });
});
