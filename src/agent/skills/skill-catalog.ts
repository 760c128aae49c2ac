import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FawnConfig,
  SKILLS_CONTAINER_PATH,
  type SkillsConfig,
} from "../../core/config/schema.js";
import { NotFoundError, StoreError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import { FawnPaths } from "../../core/paths.js";
import type { DocumentStore } from "../../ports/document-store.js";
import { type Skill, type SkillCategory, skillContainerFile } from "./skill.js";
import { discoverSkills } from "./skill-discovery.js";
import { parseSkillMarkdown } from "./skill-frontmatter.js";
import { SkillStateStore } from "./skill-state-store.js";
import { CustomSkillStore } from "./stored/custom-skill-store.js";

/** The `skills/` folder shipped with Fawn (repo root; the same depth from `dist/`). */
export const BUNDLED_SKILLS_DIR = fileURLToPath(new URL("../../../skills", import.meta.url));

export interface SkillCatalogOptions {
  paths: FawnPaths;
  /** Host folder holding `public/`. */
  skillsRoot: string;
  containerPath?: string;
  /** Where switches and stored custom skills live; null: none (every skill enabled). */
  documents?: DocumentStore | null;
  logger?: Logger;
}

/**
 * The skills a user can see: the public ones (`<skills root>/public`), the user's stored custom
 * skills (installed or written through the API, in the document store) and folders placed by
 * hand under `<home>/users/<u>/skills/custom`, each with the user's enabled switch. Read on every
 * call, so a skill installed, edited or switched by any process shows up on the next run.
 */
export class SkillCatalog {
  readonly containerPath: string;
  readonly state: SkillStateStore | null;
  readonly custom: CustomSkillStore | null;
  private readonly paths: FawnPaths;
  private readonly skillsRoot: string;
  private readonly logger: Logger;

  constructor(options: SkillCatalogOptions) {
    this.paths = options.paths;
    this.skillsRoot = options.skillsRoot;
    this.containerPath = options.containerPath ?? SKILLS_CONTAINER_PATH;
    this.logger = (options.logger ?? rootLogger).child({ component: "skills" });
    const documents = options.documents ?? null;
    this.state = documents ? new SkillStateStore(documents, options.paths, this.logger) : null;
    this.custom = documents ? new CustomSkillStore(documents) : null;
  }

  categoryRoot(category: SkillCategory, userId: string): string {
    return category === "public"
      ? join(this.skillsRoot, "public")
      : join(this.paths.userDir(userId), "skills", "custom");
  }

  /**
   * Every valid skill, sorted by name. A custom skill with a public skill's name replaces it
   * for that user (the user's own version wins), as later categories do in the reference.
   */
  async list(userId: string): Promise<Skill[]> {
    const [publicSkills, customSkills, storedSkills, disabled] = await Promise.all([
      discoverSkills(this.categoryRoot("public", userId), "public", this.logger),
      discoverSkills(this.categoryRoot("custom", userId), "custom", this.logger),
      this.storedSkills(userId),
      this.state ? this.state.disabledNames(userId) : new Set<string>(),
    ]);
    const byName = new Map<string, Omit<Skill, "enabled">>();
    // A stored skill replaces a hand-placed folder of the same name.
    const handPlaced = customSkills.filter(
      (skill) => !storedSkills.some((s) => s.name === skill.name),
    );
    for (const skill of [...publicSkills, ...handPlaced, ...storedSkills]) {
      const earlier = byName.get(skill.name);
      if (earlier && earlier.category === skill.category) {
        this.logger.warn(
          { name: skill.name, kept: earlier.hostDir, skipped: skill.hostDir },
          "two skills share a name; the first one is kept",
        );
        continue;
      }
      byName.set(skill.name, skill);
    }
    return [...byName.values()]
      .map((skill) => ({ ...skill, enabled: !disabled.has(skill.name) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The user's custom skills kept in the document store; an unreadable one is skipped. */
  private async storedSkills(userId: string): Promise<Omit<Skill, "enabled">[]> {
    const store = this.custom;
    if (!store) return [];
    const records = await store.list(userId);
    return records.flatMap((record) => {
      const parsed = parseSkillMarkdown(record.content);
      if (!parsed.ok || parsed.manifest.name !== record.name) {
        this.logger.warn({ userId, name: record.name }, "stored skill skipped: invalid SKILL.md");
        return [];
      }
      return [
        {
          ...parsed.manifest,
          category: "custom" as const,
          relativeDir: record.name,
          hostDir: null,
          editable: true,
          stored: { content: record.content, files: () => store.files(userId, record) },
        },
      ];
    });
  }

  async enabled(userId: string): Promise<Skill[]> {
    return (await this.list(userId)).filter((skill) => skill.enabled);
  }

  async get(userId: string, name: string): Promise<Skill> {
    const skill = (await this.list(userId)).find((candidate) => candidate.name === name);
    if (!skill) throw unknownSkill(name);
    return skill;
  }

  /** Flips the user's switch for a skill they can see; an unknown name is a 404. */
  async setEnabled(userId: string, name: string, enabled: boolean): Promise<Skill> {
    const skill = await this.get(userId, name);
    if (!this.state)
      throw new StoreError("Skill switches need the document store; none is configured.");
    await this.state.setEnabled(userId, name, enabled);
    return { ...skill, enabled };
  }

  containerFile(skill: Pick<Skill, "category" | "relativeDir">): string {
    return skillContainerFile(skill, this.containerPath);
  }
}

function unknownSkill(name: string): NotFoundError {
  return new NotFoundError(`Skill "${name}" not found; GET /api/skills lists the skills you have.`);
}

/**
 * The catalog `config.yaml` describes: `skills.path` (relative to `baseDir`, default the working
 * directory) or the bundled folder.
 */
export function skillCatalogFromConfig(
  config: Pick<FawnConfig, "home"> & { skills?: SkillsConfig | undefined },
  options: { baseDir?: string; logger?: Logger; documents?: DocumentStore | null } = {},
): SkillCatalog {
  const configured = config.skills?.path;
  return new SkillCatalog({
    paths: new FawnPaths(config.home),
    skillsRoot: configured
      ? resolve(options.baseDir ?? process.cwd(), configured)
      : BUNDLED_SKILLS_DIR,
    containerPath: config.skills?.container_path ?? SKILLS_CONTAINER_PATH,
    documents: options.documents ?? null,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
