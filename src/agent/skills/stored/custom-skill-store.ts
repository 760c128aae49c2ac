import { randomBytes } from "node:crypto";
import { type Clock, isoNow, systemClock } from "../../../core/clock.js";
import { ConflictError, NotFoundError } from "../../../core/errors.js";
import { type DocumentStore, updateDocument } from "../../../ports/document-store.js";
import type { SkillPackage, SkillPackageFile } from "./skill-package.js";
import {
  type CustomSkillRecord,
  filesFromStored,
  filesToStored,
  recordFromStored,
  type SkillVersion,
  type SkillVersionAction,
  versionFromStored,
} from "./stored-skill-values.js";

/**
 * Document collections: one document per (user, skill) with its SKILL.md and the index of its
 * other files; the files themselves (one document per installed file set, so an edit of SKILL.md
 * never rewrites them); and one document per kept version of SKILL.md.
 */
export const CUSTOM_SKILLS_COLLECTION = "custom_skills";
export const CUSTOM_SKILL_FILES_COLLECTION = "custom_skill_files";
export const CUSTOM_SKILL_VERSIONS_COLLECTION = "custom_skill_versions";
/** Custom skills one user may keep. */
export const MAX_CUSTOM_SKILLS = 500;
/** Versions of one skill kept; the oldest goes when a write passes this. */
export const MAX_SKILL_VERSIONS = 100;

/**
 * Users' custom skills in the document store, so every process of a deployment serves the same
 * ones. Every call names the owner; nobody reads or writes another user's skills. A skill becomes
 * visible in one write (its `custom_skills` document, created only if absent): its files are
 * written first under a fresh key, so a failed or refused install leaves nothing a listing sees.
 */
export class CustomSkillStore {
  private readonly clock: Clock;

  constructor(
    private readonly documents: DocumentStore,
    options: { clock?: Clock } = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  async list(owner: string): Promise<CustomSkillRecord[]> {
    const stored = await this.documents.list(CUSTOM_SKILLS_COLLECTION, owner, {
      limit: MAX_CUSTOM_SKILLS,
    });
    return stored.flatMap((document) => {
      const record = recordFromStored(document.value);
      return record ? [record] : [];
    });
  }

  async get(owner: string, name: string): Promise<CustomSkillRecord | null> {
    const stored = await this.documents.get(CUSTOM_SKILLS_COLLECTION, owner, name);
    return stored === null ? null : recordFromStored(stored.value);
  }

  /** The files beside SKILL.md. */
  async files(owner: string, record: CustomSkillRecord): Promise<SkillPackageFile[]> {
    if (record.files_key === null) return [];
    const stored = await this.documents.get(CUSTOM_SKILL_FILES_COLLECTION, owner, record.files_key);
    return stored === null ? [] : filesFromStored(stored.value);
  }

  /** Stores a new skill (version 1); 409 when the user already has one of that name. */
  async create(
    owner: string,
    skill: SkillPackage,
    action: SkillVersionAction,
  ): Promise<CustomSkillRecord> {
    const existing = await this.documents.list(CUSTOM_SKILLS_COLLECTION, owner, {
      limit: MAX_CUSTOM_SKILLS,
    });
    if (existing.some((document) => document.key === skill.name)) throw taken(skill.name);
    if (existing.length >= MAX_CUSTOM_SKILLS) {
      throw new ConflictError(
        `You already have ${MAX_CUSTOM_SKILLS} custom skills; delete one before adding another.`,
      );
    }
    const filesKey =
      skill.files.length === 0 ? null : `${skill.name}/${randomBytes(8).toString("hex")}`;
    if (filesKey !== null) {
      const value = filesToStored(skill.files);
      await this.documents.put(CUSTOM_SKILL_FILES_COLLECTION, owner, filesKey, value, 0);
    }
    const now = isoNow(this.clock);
    const record: CustomSkillRecord = {
      name: skill.name,
      content: skill.content,
      files_key: filesKey,
      files: skill.files.map((file) => ({
        path: file.path,
        mode: file.mode,
        size: file.data.length,
      })),
      version: 1,
      created_at: now,
      updated_at: now,
    };
    const stored = await this.documents.put(
      CUSTOM_SKILLS_COLLECTION,
      owner,
      skill.name,
      { ...record },
      0,
    );
    if (stored === null) {
      // Lost the name to a concurrent install: take back the files nobody refers to.
      if (filesKey !== null)
        await this.documents.delete(CUSTOM_SKILL_FILES_COLLECTION, owner, filesKey);
      throw taken(skill.name);
    }
    await this.recordVersion(owner, record, { action, prev_content: null });
    return record;
  }

  /** Replaces SKILL.md (one more version); 404 when the user has no such skill. */
  async setContent(
    owner: string,
    name: string,
    content: string,
    change: { action: SkillVersionAction; rollback_from_version?: number },
  ): Promise<CustomSkillRecord> {
    // The content this write replaced (the last attempt's, when a conflict made it retry).
    const read: { previous: CustomSkillRecord | null } = { previous: null };
    const stored = await updateDocument(
      this.documents,
      CUSTOM_SKILLS_COLLECTION,
      owner,
      name,
      (current) => {
        const previous = current === null ? null : recordFromStored(current.value);
        read.previous = previous;
        if (previous === null) throw notFound(name);
        const next: CustomSkillRecord = {
          ...previous,
          content,
          version: previous.version + 1,
          updated_at: isoNow(this.clock),
        };
        return { ...next };
      },
    );
    const record = stored === null ? null : recordFromStored(stored.value);
    if (record === null || read.previous === null) throw notFound(name);
    await this.recordVersion(owner, record, { ...change, prev_content: read.previous.content });
    return record;
  }

  /** Deletes the skill, its files and its history; false when there was none. */
  async delete(owner: string, name: string): Promise<boolean> {
    const record = await this.get(owner, name);
    const deleted = await this.documents.delete(CUSTOM_SKILLS_COLLECTION, owner, name);
    if (!deleted) return false;
    if (record?.files_key) {
      await this.documents.delete(CUSTOM_SKILL_FILES_COLLECTION, owner, record.files_key);
    }
    const versions = await this.documents.list(CUSTOM_SKILL_VERSIONS_COLLECTION, owner, {
      keyPrefix: `${name}/`,
    });
    for (const version of versions) {
      await this.documents.delete(CUSTOM_SKILL_VERSIONS_COLLECTION, owner, version.key);
    }
    return true;
  }

  /** The kept versions, oldest first (at most `MAX_SKILL_VERSIONS`). */
  async history(owner: string, record: CustomSkillRecord): Promise<SkillVersion[]> {
    const stored = await this.documents.list(CUSTOM_SKILL_VERSIONS_COLLECTION, owner, {
      keyPrefix: `${record.name}/`,
    });
    return stored
      .flatMap((document) => {
        const version = versionFromStored(document.value);
        // A version above the record's is a leftover of a deleted skill of the same name.
        return version && version.version <= record.version ? [version] : [];
      })
      .sort((a, b) => a.version - b.version);
  }

  private async recordVersion(
    owner: string,
    record: CustomSkillRecord,
    change: {
      action: SkillVersionAction;
      prev_content: string | null;
      rollback_from_version?: number;
    },
  ): Promise<void> {
    const version: SkillVersion = {
      version: record.version,
      action: change.action,
      author: "human",
      ts: record.updated_at,
      content: record.content,
      prev_content: change.prev_content,
      ...(change.rollback_from_version === undefined
        ? {}
        : { rollback_from_version: change.rollback_from_version }),
    };
    const key = versionKey(record.name, record.version);
    await this.documents.put(CUSTOM_SKILL_VERSIONS_COLLECTION, owner, key, { ...version }, "any");
    const expired = record.version - MAX_SKILL_VERSIONS;
    if (expired >= 1) {
      await this.documents.delete(
        CUSTOM_SKILL_VERSIONS_COLLECTION,
        owner,
        versionKey(record.name, expired),
      );
    }
  }
}

function versionKey(name: string, version: number): string {
  return `${name}/${String(version).padStart(9, "0")}`;
}

function taken(name: string): ConflictError {
  return new ConflictError(
    `Skill '${name}' already exists; delete it first or edit it with PUT /api/skills/custom/${name}.`,
  );
}

function notFound(name: string): NotFoundError {
  return new NotFoundError(`Custom skill '${name}' not found`);
}
