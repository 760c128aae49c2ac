import { z } from "zod";

/**
 * A custom agent as a user defines it: a name, what it is for, its SOUL.md-style instructions,
 * and the model, tool groups and skills its runs are restricted to. Field names and meanings are
 * the reference's (`config.yaml` + `SOUL.md` of an agent folder), kept in one document.
 */
export interface AgentDefinition {
  /** Lowercase, `[a-z0-9-]`. */
  name: string;
  description: string;
  /** A configured model's name; null: the run's (or the default) model. */
  model: string | null;
  /** Tool groups the agent may use; null: every group. */
  tool_groups: string[] | null;
  /** Skills the agent may use; null: every enabled skill, []: none. */
  skills: string[] | null;
  model_settings: AgentModelSettings | null;
  thinking_enabled: boolean | null;
  reasoning_effort: ReasoningEffort | null;
  /** The agent's instructions (SOUL.md). */
  soul: string;
}

export interface AgentModelSettings {
  temperature?: number;
  max_tokens?: number;
}

export const REASONING_EFFORTS = ["low", "medium", "high"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** The reference's rule: letters, digits and hyphens; stored lowercase. */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9-]+$/;
export const AGENT_NAME_MAX = 64;
/** SOUL.md and USER.md go into every prompt of their runs; 64 KiB is far beyond a useful one. */
export const AGENT_SOUL_MAX_CHARS = 65_536;
export const USER_PROFILE_MAX_CHARS = 65_536;
export const AGENT_DESCRIPTION_MAX_CHARS = 2_000;
const LIST_MAX = 100;
const LIST_ITEM_MAX = 128;
/** The reference's ceiling for a per-agent `max_tokens`. */
const MAX_AGENT_OUTPUT_TOKENS = 200_000;

/** Why `name` is not an agent name, or null when it is one. */
export function agentNameProblem(name: string): string | null {
  if (name.length === 0 || name.length > AGENT_NAME_MAX || !AGENT_NAME_PATTERN.test(name)) {
    return `Invalid agent name '${name.slice(0, AGENT_NAME_MAX)}'. Must match ^[A-Za-z0-9-]+$ (letters, digits, and hyphens only) and be at most ${AGENT_NAME_MAX} characters.`;
  }
  return null;
}

export function normalizeAgentName(name: string): string {
  return name.toLowerCase();
}

const nameList = z.array(z.string().trim().min(1).max(LIST_ITEM_MAX)).max(LIST_MAX);

export const modelSettingsSchema = z.strictObject({
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.number().int().min(1).max(MAX_AGENT_OUTPUT_TOKENS).nullish(),
});

/** The fields a create or update request may carry (all optional here; create needs `name`). */
export const agentFieldsSchema = {
  description: z.string().max(AGENT_DESCRIPTION_MAX_CHARS).nullish(),
  model: z.string().max(256).nullish(),
  tool_groups: nameList.nullish(),
  skills: nameList.nullish(),
  model_settings: modelSettingsSchema.nullish(),
  thinking_enabled: z.boolean().nullish(),
  reasoning_effort: z.enum(REASONING_EFFORTS).nullish(),
  soul: z.string().max(AGENT_SOUL_MAX_CHARS).nullish(),
};

export const agentCreateSchema = z.strictObject({
  name: z.string().max(AGENT_NAME_MAX * 4),
  ...agentFieldsSchema,
});
export const agentUpdateSchema = z.strictObject(agentFieldsSchema);

export type AgentCreateRequest = z.output<typeof agentCreateSchema>;
export type AgentUpdateRequest = z.output<typeof agentUpdateSchema>;

/** A definition from a create request (name already checked and normalized). */
export function definitionFromCreate(name: string, request: AgentCreateRequest): AgentDefinition {
  return {
    name,
    description: request.description ?? "",
    model: emptyToNull(request.model),
    tool_groups: request.tool_groups ?? null,
    skills: request.skills ?? null,
    model_settings: cleanModelSettings(request.model_settings ?? null),
    thinking_enabled: request.thinking_enabled ?? null,
    reasoning_effort: request.reasoning_effort ?? null,
    soul: request.soul ?? "",
  };
}

/**
 * The definition after an update: a field the request leaves out keeps its value, an explicit
 * null clears it (the reference's rule; for `skills` null means "every skill" again). Inside
 * `model_settings`, an omitted sub-field is kept too, so changing the temperature keeps the
 * token limit.
 */
export function applyUpdate(
  current: AgentDefinition,
  request: AgentUpdateRequest,
  given: ReadonlySet<string>,
): AgentDefinition {
  const next: AgentDefinition = { ...current };
  if (given.has("description")) next.description = request.description ?? "";
  if (given.has("model")) next.model = emptyToNull(request.model);
  if (given.has("tool_groups")) next.tool_groups = request.tool_groups ?? null;
  if (given.has("skills")) next.skills = request.skills ?? null;
  if (given.has("thinking_enabled")) next.thinking_enabled = request.thinking_enabled ?? null;
  if (given.has("reasoning_effort")) next.reasoning_effort = request.reasoning_effort ?? null;
  if (given.has("soul") && request.soul !== null && request.soul !== undefined) {
    next.soul = request.soul;
  }
  if (given.has("model_settings")) {
    const patch = request.model_settings;
    next.model_settings =
      patch === null || patch === undefined
        ? null
        : cleanModelSettings({ ...(current.model_settings ?? {}), ...patch });
  }
  return next;
}

/** Reads a stored document back; a document that does not parse is reported, never guessed. */
export function definitionFromStored(value: Record<string, unknown>): AgentDefinition | null {
  const parsed = storedSchema.safeParse(value);
  if (!parsed.success) return null;
  const stored = parsed.data;
  return {
    name: stored.name,
    description: stored.description ?? "",
    model: stored.model ?? null,
    tool_groups: stored.tool_groups ?? null,
    skills: stored.skills ?? null,
    model_settings: cleanModelSettings(stored.model_settings ?? null),
    thinking_enabled: stored.thinking_enabled ?? null,
    reasoning_effort: stored.reasoning_effort ?? null,
    soul: stored.soul ?? "",
  };
}

const storedSchema = z.looseObject({
  name: z.string().min(1),
  ...agentFieldsSchema,
});

/** The stored form: the definition as a plain JSON object. */
export function definitionToStored(definition: AgentDefinition): Record<string, unknown> {
  return { ...definition };
}

function cleanModelSettings(
  settings: { temperature?: number | null; max_tokens?: number | null } | null,
): AgentModelSettings | null {
  if (settings === null) return null;
  const clean: AgentModelSettings = {};
  if (typeof settings.temperature === "number") clean.temperature = settings.temperature;
  if (typeof settings.max_tokens === "number") clean.max_tokens = settings.max_tokens;
  return Object.keys(clean).length === 0 ? null : clean;
}

function emptyToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === "" ? null : value;
}
