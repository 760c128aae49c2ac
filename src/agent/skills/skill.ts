/**
 * A skill: a folder holding `SKILL.md` (YAML frontmatter + instructions) and any files it refers
 * to. Skills come in categories; each category has its own host root, and inside a sandbox a skill
 * lives at `<container_path>/<category>/<relative dir>/`.
 */

export const SKILL_FILE = "SKILL.md";

/** `public`: shipped with Fawn (read-only); `custom`: written by a user, for that user only. */
export const SKILL_CATEGORIES = ["public", "custom"] as const;
export type SkillCategory = (typeof SKILL_CATEGORIES)[number];

export interface SecretRequirement {
  name: string;
  optional: boolean;
}

/** What a valid SKILL.md frontmatter declares. */
export interface SkillManifest {
  name: string;
  description: string;
  license: string | null;
  /** Null: no restriction declared; an empty list: a skill that needs no tools. */
  allowedTools: readonly string[] | null;
  requiredSecrets: readonly SecretRequirement[];
}

/** The files of a skill kept in the document store (a user's installed or written skill). */
export interface StoredSkillSource {
  /** SKILL.md. */
  content: string;
  /** The files beside SKILL.md, read when a run projects the skill into its sandbox. */
  files(): Promise<Array<{ path: string; mode: number; data: Buffer }>>;
}

export interface Skill extends SkillManifest {
  category: SkillCategory;
  /** The skill folder relative to its category root, `/`-separated (`report-writing`, `team/x`). */
  relativeDir: string;
  /** Host folder of the skill; null for a stored skill (`stored`). */
  hostDir: string | null;
  /** Set for a skill kept in the document store: its files come from there. */
  stored?: StoredSkillSource;
  /** A stored custom skill, which the API can edit and delete. */
  editable?: boolean;
  enabled: boolean;
}

/** `/mnt/skills/public/report-writing/SKILL.md`: where the agent reads the skill. */
export function skillContainerFile(
  skill: Pick<Skill, "category" | "relativeDir">,
  containerRoot: string,
): string {
  return `${skillContainerDir(skill, containerRoot)}/${SKILL_FILE}`;
}

export function skillContainerDir(
  skill: Pick<Skill, "category" | "relativeDir">,
  containerRoot: string,
): string {
  return `${containerRoot.replace(/\/+$/, "")}/${skill.category}/${skill.relativeDir}`;
}
