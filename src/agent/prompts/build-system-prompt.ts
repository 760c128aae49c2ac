import {
  LEAD_PROMPT_SECTIONS,
  type PromptContext,
  type PromptSection,
  type PromptSkill,
  type PromptTool,
} from "./prompt-sections.js";

export interface SystemPromptOptions {
  agentName?: string;
  tools?: readonly PromptTool[];
  /** The user's enabled skills (listed with where their SKILL.md is). */
  skills?: readonly PromptSkill[];
  /** List skill names only (`skills.deferred_discovery`). */
  skillsDeferred?: boolean;
  subagents?: { maxConcurrent: number; maxTotal: number } | null;
  /** The user's rendered `<memory>` block (see agent/memory), or null. */
  memory?: string | null;
  /** The custom agent's blocks (SOUL.md, self-update or setup, USER.md), or null. */
  agentPrompt?: string | null;
  /** Today (default: now). */
  date?: Date;
  /** IANA time zone for the date (default: the server's). */
  timeZone?: string;
  sections?: readonly PromptSection[];
}

/** Renders the lead agent's system prompt from its sections (see prompt-sections.ts). */
export function buildSystemPrompt(options: SystemPromptOptions = {}): string {
  const context: PromptContext = {
    agentName: options.agentName ?? "Fawn",
    tools: options.tools ?? [],
    skills: options.skills ?? [],
    skillsDeferred: options.skillsDeferred ?? false,
    subagents: options.subagents ?? null,
    memory: options.memory ?? null,
    agentPrompt: options.agentPrompt ?? null,
    currentDate: formatPromptDate(options.date ?? new Date(), options.timeZone),
  };
  return (options.sections ?? LEAD_PROMPT_SECTIONS)
    .map((section) => section.render(context))
    .filter((text): text is string => text !== null && text !== "")
    .join("\n\n");
}

/** `2026-05-04, Monday`: the form the reference injects as `<current_date>`. */
export function formatPromptDate(date: Date, timeZone?: string): string {
  const zone = timeZone ? { timeZone } : {};
  const day = new Intl.DateTimeFormat("en-CA", {
    ...zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(date);
  const weekday = new Intl.DateTimeFormat("en-US", { ...zone, weekday: "long" }).format(date);
  return `${day}, ${weekday}`;
}
