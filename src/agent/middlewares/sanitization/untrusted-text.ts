/**
 * Neutralizing text from outside the trust boundary (the user's message, fetched web content)
 * before the model reads it as data. Two structural defenses only: tags that Fawn's own prompts
 * and middlewares use as trusted context markers, plus common injection tags, are HTML-escaped
 * (`<system>` → `&lt;system&gt;`, still readable, no longer structure); and the user-input boundary
 * markers cannot be forged. Ordinary HTML/XML (`<div>`) is left alone.
 */

/** Tag names that mark trusted context in Fawn's prompts, and common injection tags. */
export const BLOCKED_TAG_NAMES: readonly string[] = [
  // Context blocks Fawn's prompt and middlewares write (and the reference's, for its skills).
  "system-reminder",
  "system_reminder",
  "memory",
  "current_date",
  "think",
  "analysis",
  "role",
  "soul",
  "self_update",
  "thinking_style",
  "clarification_system",
  "critical_reminders",
  "response_style",
  "citations",
  "uploaded_files",
  "current_uploads",
  "subagent_system",
  "skill_system",
  "skill_index",
  "available_skills",
  "disabled_skills",
  "memory_tool_system",
  "todo_list_system",
  "durable_context_data",
  "slash_skill_activation",
  "mcp_routing_hints",
  "available-deferred-tools",
  "goal_continuation",
  "background_task_event",
  "file_editing_workflow",
  "guidelines",
  "output_format",
  "working_directory",
  "tool_restrictions",
  "user_profile",
  "working_rules",
  "working_directories",
  "todo_list",
  // Common injection tags.
  "system",
  "instruction",
  "important",
  "override",
  "ignore",
  "prompt",
];

const escaped = [...BLOCKED_TAG_NAMES]
  .sort((a, b) => b.length - a.length)
  .map((name) => name.replace(/[-_]/g, (c) => `\\${c}`));
/** `<tag>`, `</tag>`, `<tag attr>`, `<tag/>` and a bare `<tag` (case-insensitive). */
const BLOCKED_TAG = new RegExp(`<\\s*/?\\s*(?:${escaped.join("|")})(?![\\w-])[^>]*>?`, "gi");

export const USER_INPUT_BEGIN = "--- BEGIN USER INPUT ---";
export const USER_INPUT_END = "--- END USER INPUT ---";
/** Look-alikes that replace boundary markers found inside untrusted text. */
const NEUTRAL_BEGIN = "[BEGIN USER INPUT]";
const NEUTRAL_END = "[END USER INPUT]";

function escapeBlockedTags(text: string): string {
  return text.replace(BLOCKED_TAG, (tag) => tag.replaceAll("<", "&lt;").replaceAll(">", "&gt;"));
}

function neutralizeBoundaries(text: string): string {
  return text.replaceAll(USER_INPUT_BEGIN, NEUTRAL_BEGIN).replaceAll(USER_INPUT_END, NEUTRAL_END);
}

/** Blocked tags escaped and boundary markers defused; blank text is returned as is. */
export function neutralizeUntrustedText(text: string): string {
  if (text.trim() === "") return text;
  return neutralizeBoundaries(escapeBlockedTags(text));
}

/**
 * The user's message as the model gets it: neutralized, then framed by the boundary markers.
 * Idempotent: text already framed exactly once stays as it is (its inside still neutralized).
 */
export function frameUserText(text: string): string {
  if (text.trim() === "") return text;
  const clean = escapeBlockedTags(text);
  if (clean.startsWith(USER_INPUT_BEGIN) && clean.endsWith(USER_INPUT_END)) {
    const inner = clean.slice(USER_INPUT_BEGIN.length, clean.length - USER_INPUT_END.length);
    return `${USER_INPUT_BEGIN}${neutralizeBoundaries(inner)}${USER_INPUT_END}`;
  }
  return `${USER_INPUT_BEGIN}\n${neutralizeBoundaries(clean)}\n${USER_INPUT_END}`;
}
