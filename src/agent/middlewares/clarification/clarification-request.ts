import { createHash } from "node:crypto";
import { isPlainObject } from "../../../core/config/env-expansion.js";

export const CLARIFICATION_TYPES = [
  "missing_info",
  "ambiguous_requirement",
  "approach_choice",
  "risk_confirmation",
  "suggestion",
] as const;
export type ClarificationType = (typeof CLARIFICATION_TYPES)[number];

export const FIELD_TYPES = [
  "text",
  "textarea",
  "number",
  "select",
  "multi_select",
  "checkbox",
  "date",
] as const;
type FieldType = (typeof FIELD_TYPES)[number];

const ICONS: Record<ClarificationType, string> = {
  missing_info: "❓",
  ambiguous_requirement: "🤔",
  approach_choice: "🔀",
  risk_confirmation: "⚠️",
  suggestion: "💡",
};
const MAX_FIELDS = 16;
const MAX_OPTIONS = 24;
const MAX_TEXT = 200;
const MAX_FORM_BYTES = 16 * 1024;
/** Field names a JavaScript client would trip over when used as object keys. */
const RESERVED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

export interface FormField {
  name: string;
  label?: string;
  type: FieldType;
  required?: boolean;
  options?: string[];
  placeholder?: string;
}

export interface HumanInputRequest {
  version: 1 | 2;
  kind: "human_input_request";
  source: "ask_clarification";
  request_id: string;
  clarification_type: ClarificationType;
  question: string;
  input_mode: "form" | "choice_with_other" | "free_text";
  tool_call_id: string;
  context?: string;
  fields?: FormField[];
  options?: Array<{ id: string; label: string; value: string }>;
}

export interface ClarificationRequest {
  text: string;
  payload: HumanInputRequest;
}

/**
 * Turns the model's `ask_clarification` arguments into what the user sees (a readable question
 * with numbered options or form fields) and the machine-readable `human_input` payload a client
 * renders. Options are cleaned leniently; a form with any invalid field is
 * dropped as a whole, so a client never renders half a form.
 */
export function buildClarificationRequest(
  args: Record<string, unknown>,
  toolCallId: string,
): ClarificationRequest {
  const question =
    stripTags(String(args.question ?? "")).trim() || "Could you clarify the request?";
  const type = CLARIFICATION_TYPES.find((t) => t === args.clarification_type) ?? "missing_info";
  const context = typeof args.context === "string" ? stripTags(args.context).trim() : "";
  const fields = normalizeFields(args.fields);
  const options = fields ? [] : normalizeOptions(args.options);

  const lines: string[] = [];
  if (context) lines.push(context, "");
  lines.push(`${ICONS[type]} ${question}`);
  if (fields) {
    lines.push("", "Please provide:");
    for (const field of fields) {
      lines.push(`- ${field.label ?? field.name}${field.required ? " (required)" : ""}`);
    }
  } else if (options.length > 0) {
    lines.push("", ...options.map((option, i) => `${i + 1}. ${option}`));
  }
  const text = lines.join("\n");
  const requestId = toolCallId
    ? `clarification:${toolCallId}`
    : `clarification:${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
  const payload: HumanInputRequest = {
    version: fields ? 2 : 1,
    kind: "human_input_request",
    source: "ask_clarification",
    request_id: requestId,
    clarification_type: type,
    question,
    input_mode: fields ? "form" : options.length > 0 ? "choice_with_other" : "free_text",
    tool_call_id: toolCallId,
    ...(context ? { context } : {}),
    ...(fields ? { fields } : {}),
    ...(options.length > 0
      ? { options: options.map((label, i) => ({ id: `option_${i + 1}`, label, value: label })) }
      : {}),
  };
  return { text, payload };
}

/** A JSON string, a list, or objects whose string leaves are the options. */
export function normalizeOptions(raw: unknown): string[] {
  let value = raw;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      value = [value];
    }
  }
  const leaves: string[] = [];
  const collect = (item: unknown) => {
    if (typeof item === "string") leaves.push(item);
    else if (typeof item === "number" || typeof item === "boolean") leaves.push(String(item));
    else if (Array.isArray(item)) item.forEach(collect);
    else if (isPlainObject(item)) Object.values(item).forEach(collect);
  };
  collect(Array.isArray(value) ? value : [value]);
  const cleaned = leaves.map((leaf) => stripTags(leaf).trim().slice(0, MAX_TEXT)).filter(Boolean);
  return [...new Set(cleaned)].slice(0, MAX_OPTIONS);
}

/** The form, or undefined when absent or when any field is invalid. */
function normalizeFields(raw: unknown): FormField[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_FIELDS) return undefined;
  const names = new Set<string>();
  const fields: FormField[] = [];
  for (const item of raw) {
    const field = normalizeField(item);
    if (!field || names.has(field.name)) return undefined;
    names.add(field.name);
    fields.push(field);
  }
  return Buffer.byteLength(JSON.stringify(fields)) <= MAX_FORM_BYTES ? fields : undefined;
}

function normalizeField(item: unknown): FormField | null {
  if (!isPlainObject(item)) return null;
  const name = shortText(item.name);
  if (!name || RESERVED_NAMES.has(name)) return null;
  const label = item.label === undefined ? undefined : shortText(item.label);
  const placeholder = item.placeholder === undefined ? undefined : shortText(item.placeholder);
  if (label === null || placeholder === null) return null;
  let options: string[] | undefined;
  if (item.options !== undefined) {
    if (!Array.isArray(item.options) || item.options.length > MAX_OPTIONS) return null;
    const texts = item.options.map(shortText);
    if (texts.some((text) => text === null)) return null;
    options = texts.filter((text): text is string => text !== null);
  }
  let type: FieldType = FIELD_TYPES.find((t) => t === item.type) ?? "text";
  if ((type === "select" || type === "multi_select") && !options?.length) type = "text";
  return {
    name,
    type,
    ...(label ? { label } : {}),
    ...(typeof item.required === "boolean" ? { required: item.required } : {}),
    ...(options?.length ? { options } : {}),
    ...(placeholder ? { placeholder } : {}),
  };
}

/** A non-empty string of at most 200 characters, tags removed; null otherwise. */
function shortText(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = stripTags(value).trim();
  return text !== "" && text.length <= MAX_TEXT ? text : null;
}

function stripTags(text: string): string {
  return text.replace(/<[^>]*>/g, "");
}
