import { apiJson } from "../../api/http.js";

/** The skills routes this panel calls (docs/API.md, Skills). */
export interface Skill {
  name: string;
  description: string;
  license: string | null;
  category: "public" | "custom";
  enabled: boolean;
  editable: boolean;
}

export interface CustomSkill extends Skill {
  content: string;
}

export interface SkillHistoryEntry {
  version: number;
  action: "install" | "create" | "human_edit" | "rollback";
  ts: string;
  rollback_from_version?: number;
}

const JSON_HEADERS = { "content-type": "application/json" };

function skillPath(name: string): string {
  return encodeURIComponent(name);
}

export async function listSkills(): Promise<Skill[]> {
  return (await apiJson<{ skills: Skill[] }>("/skills")).skills;
}

export function switchSkill(name: string, enabled: boolean): Promise<Skill> {
  return apiJson<Skill>(`/skills/${skillPath(name)}`, {
    method: "PUT",
    headers: JSON_HEADERS,
    body: JSON.stringify({ enabled }),
  });
}

/** Sends the archive itself; the server checks it whole before storing anything. */
export function installSkillArchive(file: Blob): Promise<{ skill_name: string; message: string }> {
  return apiJson("/skills/install", {
    method: "POST",
    headers: { "content-type": "application/zip" },
    body: file,
  });
}

export function readCustomSkill(name: string): Promise<CustomSkill> {
  return apiJson<CustomSkill>(`/skills/custom/${skillPath(name)}`);
}

export function createCustomSkill(content: string): Promise<CustomSkill> {
  return apiJson<CustomSkill>("/skills/custom", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ content }),
  });
}

export function updateCustomSkill(name: string, content: string): Promise<CustomSkill> {
  return apiJson<CustomSkill>(`/skills/custom/${skillPath(name)}`, {
    method: "PUT",
    headers: JSON_HEADERS,
    body: JSON.stringify({ content }),
  });
}

export async function deleteCustomSkill(name: string): Promise<void> {
  await apiJson(`/skills/custom/${skillPath(name)}`, { method: "DELETE" });
}

export async function skillHistory(name: string): Promise<SkillHistoryEntry[]> {
  return (
    await apiJson<{ history: SkillHistoryEntry[] }>(`/skills/custom/${skillPath(name)}/history`)
  ).history;
}

export function restoreSkillVersion(name: string, version: number): Promise<CustomSkill> {
  return apiJson<CustomSkill>(`/skills/custom/${skillPath(name)}/rollback`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ version }),
  });
}

export const NEW_SKILL_TEMPLATE = `---
name: my-skill
description: What this skill does and when the agent should use it.
---

# My skill

The steps the agent follows.
`;
