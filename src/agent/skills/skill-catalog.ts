import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FawnConfig,
  SKILLS_CONTAINER_PATH,
  type SkillsConfig,
} from "../../core/config/schema.js";
import { NotFoundError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import { FawnPaths } from "../../core/paths.js";
import { type Skill, type SkillCategory, skillContainerFile } from "./skill.js";
import { discoverSkills } from "./skill-discovery.js";
import { SkillStateStore } from "./skill-state-store.js";

/** The `skills/` folder shipped with Fawn (repo root; the same depth from `dist/`). */
export const BUNDLED_SKILLS_DIR = fileURLToPath(new URL("../../../skills", import.meta.url));

export interface SkillCatalogOptions {
  paths: FawnPaths;
  /** Host folder holding `public/`. */
  skillsRoot: string;
  containerPath?: string;
  logger?: Logger;
}

/**
 * The skills a user can see: the public ones (`<skills root>/public`) and the user's own
 * (`<home>/users/<u>/skills/custom`), each with the user's enabled switch. Read from disk on every
 * call, so an edited SKILL.md or a switch flipped by another process shows up on the next run.
 */
export class SkillCatalog {
  readonly containerPath: string;
  readonly state: SkillStateStore;
  private readonly paths: FawnPaths;
  private readonly skillsRoot: string;
  private readonly logger: Logger;

  constructor(options: SkillCatalogOptions) {
    this.paths = options.paths;
    this.skillsRoot = options.skillsRoot;
    this.containerPath = options.containerPath ?? SKILLS_CONTAINER_PATH;
    this.logger = (options.logger ?? rootLogger).child({ component: "skills" });
    this.state = new SkillStateStore(options.paths, this.logger);
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
    const [publicSkills, customSkills, disabled] = await Promise.all([
      discoverSkills(this.categoryRoot("public", userId), "public", this.logger),
      discoverSkills(this.categoryRoot("custom", userId), "custom", this.logger),
      this.state.disabledNames(userId),
    ]);
    const byName = new Map<string, Omit<Skill, "enabled">>();
    for (const skill of [...publicSkills, ...customSkills]) {
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
  options: { baseDir?: string; logger?: Logger } = {},
): SkillCatalog {
  const configured = config.skills?.path;
  return new SkillCatalog({
    paths: new FawnPaths(config.home),
    skillsRoot: configured
      ? resolve(options.baseDir ?? process.cwd(), configured)
      : BUNDLED_SKILLS_DIR,
    containerPath: config.skills?.container_path ?? SKILLS_CONTAINER_PATH,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
