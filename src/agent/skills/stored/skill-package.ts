import { BadRequestError, PayloadTooLargeError } from "../../../core/errors.js";
import type { SkillManifest } from "../skill.js";
import { parseSkillMarkdown } from "../skill-frontmatter.js";

/** A file of a skill beside its SKILL.md (`path` relative to the skill folder, `/`-separated). */
export interface SkillPackageFile {
  path: string;
  /** 0o755 for an executable script, else 0o644. */
  mode: number;
  data: Buffer;
}

/** A whole custom skill as it is stored: its SKILL.md text and every other file. */
export interface SkillPackage {
  name: string;
  content: string;
  files: SkillPackageFile[];
}

/** Validates a SKILL.md text by the reference's frontmatter rules; 400 with the rule broken. */
export function checkSkillMarkdown(content: string, maxBytes: number): SkillManifest {
  const bytes = Buffer.byteLength(content, "utf8");
  if (bytes > maxBytes) {
    throw new PayloadTooLargeError(
      `SKILL.md is ${bytes} bytes; at most ${maxBytes} are accepted (skills.install.max_skill_md_bytes).`,
    );
  }
  const parsed = parseSkillMarkdown(content);
  if (!parsed.ok) throw new BadRequestError(`Invalid skill: ${parsed.reason}.`);
  return parsed.manifest;
}
