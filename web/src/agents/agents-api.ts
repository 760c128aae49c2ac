import { apiFetch, apiJson } from "../api/http.js";

/** A custom agent as `/api/agents` returns it (docs/API.md "Custom agents"). */
export interface Agent {
  name: string;
  description: string;
  model: string | null;
  /** Null: every tool group. */
  tool_groups: string[] | null;
  /** Null: every enabled skill; []: none. */
  skills: string[] | null;
  model_settings: AgentModelSettings | null;
  thinking_enabled: boolean | null;
  reasoning_effort: ReasoningEffort | null;
  soul: string;
}

export interface AgentModelSettings {
  temperature?: number | null;
  max_tokens?: number | null;
}

export const REASONING_EFFORTS = ["low", "medium", "high"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** The fields the page edits; on update, `null` clears a field and an omitted one is kept. */
export interface AgentFields {
  description: string;
  model: string | null;
  tool_groups: string[] | null;
  skills: string[] | null;
  model_settings: AgentModelSettings | null;
  thinking_enabled: boolean | null;
  reasoning_effort: ReasoningEffort | null;
  soul: string;
}

export interface SkillEntry {
  name: string;
  description?: string;
  enabled?: boolean;
}

/** The reference's rule, checked before asking the server: letters, digits and hyphens. */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

/** The sandbox's built-in tool groups (a `tools:` entry's `group` adds its own). */
export const BUILT_IN_TOOL_GROUPS = ["file:read", "file:write", "bash"] as const;

const path = (name: string): string => `/agents/${encodeURIComponent(name)}`;
const JSON_HEADERS = { "Content-Type": "application/json" };

export async function listAgents(): Promise<Agent[]> {
  return (await apiJson<{ agents: Agent[] }>("/agents")).agents;
}

/** Whether the name is free for the caller, as the server normalizes it (lowercase). */
export function checkAgentName(name: string): Promise<{ available: boolean; name: string }> {
  return apiJson(`/agents/check?name=${encodeURIComponent(name)}`);
}

export function createAgent(name: string, fields: AgentFields): Promise<Agent> {
  return apiJson("/agents", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ name, ...fields }),
  });
}

export function updateAgent(name: string, fields: AgentFields): Promise<Agent> {
  return apiJson(path(name), {
    method: "PUT",
    headers: JSON_HEADERS,
    body: JSON.stringify(fields),
  });
}

export async function deleteAgent(name: string): Promise<void> {
  await apiFetch(path(name), { method: "DELETE" });
}

/** The caller's skills, to pick from; an empty list when the call fails (the field stays usable). */
export async function listSkillNames(): Promise<string[]> {
  try {
    const answer = await apiJson<{ skills: SkillEntry[] }>("/skills");
    return answer.skills.map((skill) => skill.name);
  } catch {
    return [];
  }
}
