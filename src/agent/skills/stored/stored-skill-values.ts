import { z } from "zod";
import type { SkillPackageFile } from "./skill-package.js";

/** How a version of a custom skill came about (the reference's history `action`s, plus ours). */
export const SKILL_VERSION_ACTIONS = ["install", "create", "human_edit", "rollback"] as const;
export type SkillVersionAction = (typeof SKILL_VERSION_ACTIONS)[number];

const recordSchema = z.object({
  name: z.string(),
  content: z.string(),
  files_key: z.string().nullable(),
  files: z.array(z.object({ path: z.string(), mode: z.number().int(), size: z.number().int() })),
  version: z.number().int().min(1),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A custom skill's `custom_skills` document. */
export type CustomSkillRecord = z.output<typeof recordSchema>;

const versionSchema = z.object({
  version: z.number().int().min(1),
  action: z.enum(SKILL_VERSION_ACTIONS),
  author: z.string(),
  ts: z.string(),
  content: z.string(),
  prev_content: z.string().nullable(),
  rollback_from_version: z.number().int().optional(),
});

/** One kept version of a custom skill's SKILL.md (`custom_skill_versions`). */
export type SkillVersion = z.output<typeof versionSchema>;

const filesSchema = z.object({
  files: z.array(z.object({ path: z.string(), mode: z.number().int(), data: z.string() })),
});

export function recordFromStored(value: Record<string, unknown>): CustomSkillRecord | null {
  const parsed = recordSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function versionFromStored(value: Record<string, unknown>): SkillVersion | null {
  const parsed = versionSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** File contents travel base64-encoded: document values are JSON. */
export function filesToStored(files: readonly SkillPackageFile[]): Record<string, unknown> {
  return {
    files: files.map((file) => ({
      path: file.path,
      mode: file.mode,
      data: file.data.toString("base64"),
    })),
  };
}

export function filesFromStored(value: Record<string, unknown>): SkillPackageFile[] {
  const parsed = filesSchema.safeParse(value);
  if (!parsed.success) return [];
  return parsed.data.files.map((file) => ({
    path: file.path,
    mode: file.mode,
    data: Buffer.from(file.data, "base64"),
  }));
}
