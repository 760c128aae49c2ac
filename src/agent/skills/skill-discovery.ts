import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { SKILL_FILE, type Skill, type SkillCategory } from "./skill.js";
import { parseSkillMarkdown } from "./skill-frontmatter.js";

/** Namespace folders nest at most this deep below a category root. */
const MAX_DEPTH = 6;

/**
 * Every valid skill under one category root. A folder holding SKILL.md is a package boundary:
 * nested SKILL.md files belong to it, they are not skills of their own. Folders without one are
 * namespaces and are searched (`public/team/helper/SKILL.md`). Hidden folders and symlinks are
 * skipped: a link could point a user's skill at host files. An invalid skill is left out with a
 * log line saying why; a missing root simply has no skills.
 */
export async function discoverSkills(
  root: string,
  category: SkillCategory,
  logger: Logger,
): Promise<Omit<Skill, "enabled">[]> {
  const found: Omit<Skill, "enabled">[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
    if (entries === null) return;
    if (entries.some((entry) => entry.isFile() && entry.name === SKILL_FILE)) {
      const skill = await loadSkill(root, dir, category, logger);
      if (skill) found.push(skill);
      return;
    }
    if (depth >= MAX_DEPTH) return;
    const folders = entries
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
      .map((entry) => entry.name)
      .sort();
    for (const name of folders) await visit(join(dir, name), depth + 1);
  };
  const top = await readdir(root, { withFileTypes: true }).catch(() => null);
  if (top === null) return found;
  const folders = top
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name)
    .sort();
  for (const name of folders) await visit(join(root, name), 1);
  return found;
}

async function loadSkill(
  root: string,
  dir: string,
  category: SkillCategory,
  logger: Logger,
): Promise<Omit<Skill, "enabled"> | null> {
  const file = join(dir, SKILL_FILE);
  let content: string;
  try {
    content = await readFile(file, "utf8");
  } catch (error) {
    logger.warn({ file, error: describeError(error) }, "skill skipped: SKILL.md is unreadable");
    return null;
  }
  const parsed = parseSkillMarkdown(content);
  if (!parsed.ok) {
    logger.warn({ file, reason: parsed.reason }, `skill skipped: ${parsed.reason}`);
    return null;
  }
  return {
    ...parsed.manifest,
    category,
    relativeDir: relative(root, dir).split(sep).join("/"),
    hostDir: dir,
  };
}
