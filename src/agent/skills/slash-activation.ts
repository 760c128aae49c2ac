import { createHash } from "node:crypto";
import type { Skill } from "./skill.js";

/** Composer commands that own the leading slash; they never activate a skill. */
export const RESERVED_SLASH_NAMES: ReadonlySet<string> = new Set([
  "bootstrap",
  "goal",
  "help",
  "memory",
  "models",
  "new",
  "status",
]);

const SLASH_SKILL = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\s+|$)/;

export interface SlashReference {
  name: string;
  /** The task text after the command. */
  rest: string;
}

/** `/report-writing summarize x` → `{name: "report-writing", rest: "summarize x"}`. */
export function parseSlashSkill(text: string): SlashReference | null {
  const match = SLASH_SKILL.exec(text.trimStart());
  const name = match?.[1];
  if (!match || name === undefined || RESERVED_SLASH_NAMES.has(name)) return null;
  return { name, rest: text.trimStart().slice(match[0].length).trimStart() };
}

/** The enabled skill a slash command names, or null (unknown, disabled or reserved). */
export function resolveSlashSkill(
  text: string,
  enabled: readonly Skill[],
): { skill: Skill; rest: string } | null {
  const reference = parseSlashSkill(text);
  if (!reference) return null;
  const skill = enabled.find((candidate) => candidate.name === reference.name);
  return skill ? { skill, rest: reference.rest } : null;
}

/**
 * The block added to the model request: the whole SKILL.md, escaped so its text cannot close the
 * block early, with where it lives and its hash (so the model can tell versions apart).
 */
export function renderActivatedSkill(skill: Skill, content: string, containerFile: string): string {
  const sha256 = createHash("sha256").update(content).digest("hex");
  const attributes = [
    `name="${escapeXml(skill.name)}"`,
    `category="${skill.category}"`,
    `path="${escapeXml(containerFile)}"`,
    `sha256="${sha256}"`,
  ].join(" ");
  return `<activated_skill ${attributes}>
The user activated this skill with /${skill.name}. Follow its instructions for this request; files it mentions are under ${escapeXml(containerFile.replace(/\/SKILL\.md$/, "/"))}.
${escapeXml(content)}
</activated_skill>`;
}

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
