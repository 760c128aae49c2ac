import type { SkillInstallConfig } from "../../../core/config/skills-install-schema.js";
import { BadRequestError, NotFoundError, StoreError } from "../../../core/errors.js";
import { type Logger, rootLogger } from "../../../core/logger.js";
import { unpackSkillArchive } from "../archive/skill-archive.js";
import { describeFindings, scanSkillContent } from "../archive/skill-scan.js";
import { SKILL_FILE, type Skill } from "../skill.js";
import type { SkillCatalog } from "../skill-catalog.js";
import type { CustomSkillStore } from "./custom-skill-store.js";
import { checkSkillMarkdown } from "./skill-package.js";
import type { SkillVersion } from "./stored-skill-values.js";

const STORABLE_NAME = /^[a-z0-9-]{1,64}$/;

/** A history entry as the API shows it (the reference's record fields, plus `version`). */
export interface SkillHistoryEntry {
  version: number;
  action: SkillVersion["action"];
  author: string;
  thread_id: null;
  file_path: string;
  prev_content: string | null;
  new_content: string;
  ts: string;
  rollback_from_version?: number;
}

/** Which version a rollback restores: a history entry's previous content, or a kept version. */
export type RollbackTarget = { history_index: number } | { version: number };

export interface CustomSkillServiceOptions {
  install: SkillInstallConfig;
  /** `skill_scan.enabled`. */
  scan: boolean;
  logger?: Logger;
}

/**
 * A user's custom skills: install from a `.skill` archive, create, edit, delete, history and
 * rollback, each for one owner. Every write is validated whole (frontmatter, limits, the content
 * scan) before anything is stored, and becomes visible to the owner's next run on any process.
 */
export class CustomSkillService {
  private readonly logger: Logger;

  constructor(
    private readonly catalog: SkillCatalog,
    private readonly options: CustomSkillServiceOptions,
  ) {
    this.logger = (options.logger ?? rootLogger).child({ component: "skills" });
  }

  async install(owner: string, archive: Buffer): Promise<{ skill_name: string }> {
    const skill = await unpackSkillArchive(archive, {
      limits: this.options.install,
      scan: this.options.scan,
      logger: this.logger,
    });
    await this.store().create(owner, skill, "install");
    this.logger.info(
      { userId: owner, skill: skill.name, files: skill.files.length },
      "skill installed",
    );
    return { skill_name: skill.name };
  }

  /** A new skill from its SKILL.md alone; its name is the frontmatter's. */
  async create(owner: string, content: string): Promise<Skill> {
    const manifest = this.checkContent(content);
    await this.store().create(owner, { name: manifest.name, content, files: [] }, "create");
    return this.getStored(owner, manifest.name);
  }

  async edit(owner: string, name: string, content: string): Promise<Skill> {
    await this.requireStored(owner, name);
    this.checkContent(content, name);
    await this.store().setContent(owner, name, content, { action: "human_edit" });
    return this.getStored(owner, name);
  }

  async delete(owner: string, name: string): Promise<void> {
    await this.requireStored(owner, name);
    await this.store().delete(owner, name);
    await this.catalog.state?.forget(owner, name);
  }

  async history(owner: string, name: string): Promise<SkillHistoryEntry[]> {
    const record = await this.findStored(owner, name);
    return (await this.store().history(owner, record)).map(toHistoryEntry);
  }

  async rollback(owner: string, name: string, target: RollbackTarget): Promise<Skill> {
    const record = await this.findStored(owner, name);
    const history = await this.store().history(owner, record);
    if (history.length === 0) throw new BadRequestError(`Custom skill '${name}' has no history`);
    let content: string | null;
    let from: number;
    if ("version" in target) {
      const kept = history.find((version) => version.version === target.version);
      if (!kept) {
        throw new BadRequestError(
          `Version ${target.version} of '${name}' is not kept; GET its history for the versions there are.`,
        );
      }
      content = kept.content;
      from = kept.version;
    } else {
      const entry = history.at(target.history_index);
      if (
        !entry ||
        target.history_index >= history.length ||
        target.history_index < -history.length
      ) {
        throw new BadRequestError("history_index is out of range");
      }
      content = entry.prev_content;
      from = entry.version;
    }
    if (content === null) {
      throw new BadRequestError("Selected history entry has no previous content to roll back to");
    }
    this.checkContent(content, name);
    await this.store().setContent(owner, name, content, {
      action: "rollback",
      rollback_from_version: from,
    });
    return this.getStored(owner, name);
  }

  /** SKILL.md of a stored skill (the custom-skill routes answer it with the skill). */
  async content(owner: string, name: string): Promise<string> {
    return (await this.findStored(owner, name)).content;
  }

  /** The stored skill, else 404 (reads and history: a public skill is no custom skill). */
  private async findStored(owner: string, name: string) {
    const record = STORABLE_NAME.test(name) ? await this.store().get(owner, name) : null;
    if (record === null) throw new NotFoundError(`Custom skill '${name.slice(0, 80)}' not found`);
    return record;
  }

  private checkContent(content: string, expectedName?: string) {
    const manifest = checkSkillMarkdown(content, this.options.install.max_skill_md_bytes);
    if (expectedName !== undefined && manifest.name !== expectedName) {
      throw new BadRequestError(
        `Frontmatter name '${manifest.name}' must match requested skill name '${expectedName}'.`,
      );
    }
    if (this.options.scan) {
      const findings = scanSkillContent(SKILL_FILE, content);
      if (findings.length > 0) {
        throw new BadRequestError(
          `Security scan blocked the edit: ${describeFindings(findings)}. Remove them or set skill_scan.enabled: false.`,
          { details: { skill_name: manifest.name, findings } },
        );
      }
    }
    return manifest;
  }

  private async requireStored(owner: string, name: string) {
    // Only a valid skill name can be stored; anything else (too long, `..`) is simply not there.
    if (!STORABLE_NAME.test(name))
      throw new NotFoundError(`Custom skill '${name.slice(0, 80)}' not found`);
    const record = await this.store().get(owner, name);
    if (record !== null) return record;
    const visible = (await this.catalog.list(owner)).find((skill) => skill.name === name);
    if (visible) {
      throw new BadRequestError(
        `'${name}' is a ${visible.category === "public" ? "built-in" : "hand-placed"} skill and cannot be edited here; create a custom skill with the same name to replace it for you.`,
      );
    }
    throw new NotFoundError(`Custom skill '${name}' not found`);
  }

  private async getStored(owner: string, name: string): Promise<Skill> {
    const skill = (await this.catalog.list(owner)).find(
      (candidate) => candidate.name === name && candidate.editable === true,
    );
    if (!skill) throw new NotFoundError(`Custom skill '${name}' not found`);
    return skill;
  }

  private store(): CustomSkillStore {
    if (!this.catalog.custom) {
      throw new StoreError("Custom skills need the document store; none is configured.");
    }
    return this.catalog.custom;
  }
}

function toHistoryEntry(version: SkillVersion): SkillHistoryEntry {
  return {
    version: version.version,
    action: version.action,
    author: version.author,
    thread_id: null,
    file_path: SKILL_FILE,
    prev_content: version.prev_content,
    new_content: version.content,
    ts: version.ts,
    ...(version.rollback_from_version === undefined
      ? {}
      : { rollback_from_version: version.rollback_from_version }),
  };
}
