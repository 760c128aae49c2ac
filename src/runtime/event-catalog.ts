import { ValidationError } from "../core/errors.js";
import {
  type EventCategory,
  MAX_CATEGORY_LENGTH,
  MAX_EVENT_TYPE_LENGTH,
  type NewRunEvent,
} from "../ports/run-event-store.js";

/**
 * The frozen catalog of run event types. Renaming, removing or re-categorising an entry is a
 * breaking change; adding entries or optional fields is not.
 */
export const EVENT_CATALOG = {
  "run.start": "trace",
  "run.end": "outputs",
  "run.error": "error",
  "run.delivery": "outputs",
  "run.terminal": "trace",
  "llm.human.input": "message",
  "llm.ai.response": "message",
  "llm.tool.result": "message",
  "llm.error": "trace",
  "context:memory": "context",
  "subagent.start": "subagent",
  "subagent.step": "subagent",
  "subagent.end": "subagent",
  workspace_changes: "workspace",
} as const satisfies Record<string, EventCategory>;

export type CatalogEventType = keyof typeof EVENT_CATALOG;

/** `middleware:{tag}` events: tag 1–21 characters so the type fits the 32-character column. */
export const MIDDLEWARE_EVENT_PREFIX = "middleware:";
export const MAX_MIDDLEWARE_TAG_LENGTH = MAX_EVENT_TYPE_LENGTH - MIDDLEWARE_EVENT_PREFIX.length;
export const KNOWN_MIDDLEWARE_TAGS = [
  "guardrail",
  "safety_termination",
  "skill_activation",
  "skill_secrets",
] as const;

/** Read-only legacy alias of `llm.ai.response`; never produced. */
export const LEGACY_AI_MESSAGE_TYPE = "ai_message";

export const SUBAGENT_TERMINAL_STATUSES = [
  "completed",
  "failed",
  "cancelled",
  "timed_out",
] as const;
export type SubagentTerminalStatus = (typeof SUBAGENT_TERMINAL_STATUSES)[number];

/** Text of a sub-agent step is capped so one chatty sub-agent cannot bloat the journal. */
export const MAX_SUBAGENT_STEP_TEXT = 8192;

export function categoryOf(eventType: string): EventCategory | null {
  if (eventType.startsWith(MIDDLEWARE_EVENT_PREFIX)) return "middleware";
  return eventType in EVENT_CATALOG ? EVENT_CATALOG[eventType as CatalogEventType] : null;
}

export function middlewareEventType(tag: string): string {
  if (tag.length < 1 || tag.length > MAX_MIDDLEWARE_TAG_LENGTH) {
    throw new ValidationError(
      `Middleware tag "${tag}" must be 1-${MAX_MIDDLEWARE_TAG_LENGTH} characters long.`,
    );
  }
  return `${MIDDLEWARE_EVENT_PREFIX}${tag}`;
}

/**
 * Check an event against the catalog before it is written, so memory and JSONL stores never
 * accept what a SQL store would reject.
 */
export function validateCatalogEvent(event: NewRunEvent): void {
  const { event_type: type, category } = event;
  if (type.length < 1 || type.length > MAX_EVENT_TYPE_LENGTH) {
    throw new ValidationError(
      `Event type must be 1-${MAX_EVENT_TYPE_LENGTH} characters: "${type}".`,
    );
  }
  if (category.length < 1 || category.length > MAX_CATEGORY_LENGTH) {
    throw new ValidationError(`Event category must be 1-${MAX_CATEGORY_LENGTH} characters.`);
  }
  const expected = categoryOf(type);
  if (expected === null) {
    throw new ValidationError(`Unknown event type "${type}"; add it to the event catalog first.`);
  }
  if (expected !== category) {
    throw new ValidationError(
      `Event type "${type}" belongs to category "${expected}", not "${category}".`,
    );
  }
}
