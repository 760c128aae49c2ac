import type { CronRow } from "../../ports/cron-store.js";

/** A cron as the reference UI's scheduled-task list shows it. */
export interface ScheduledTaskView {
  id: string;
  thread_id: string | null;
  context_mode: "fresh_thread_per_run" | "reuse_thread";
  title: string;
  prompt: string;
  schedule_type: "cron";
  schedule_spec: { cron: string };
  timezone: string;
  status: "enabled" | "paused" | "completed";
  next_run_at: string | null;
  last_run_at: string | null;
  last_run_id: string | null;
  last_thread_id: string | null;
  last_error: string | null;
  run_count: number;
  created_at: string;
  updated_at: string;
}

const TITLE_CHARS = 80;

/**
 * A Fawn cron in the reference's scheduled-task shape: a thread's cron reuses its thread, a
 * stateless one starts a fresh thread per firing; the prompt is the last user message of the
 * run input it submits; the title is `metadata.title` (or `name`), else the prompt's start.
 * Fawn keeps no firing history a task could show, so the `last_*` fields are null.
 */
export function toScheduledTask(cron: CronRow): ScheduledTaskView {
  const prompt = promptOf(cron.payload);
  return {
    id: cron.cron_id,
    thread_id: cron.thread_id,
    context_mode: cron.thread_id === null ? "fresh_thread_per_run" : "reuse_thread",
    title: titleOf(cron, prompt),
    prompt,
    schedule_type: "cron",
    schedule_spec: { cron: cron.schedule },
    timezone: cron.timezone ?? "UTC",
    status: !cron.enabled ? "paused" : cron.next_run_date === null ? "completed" : "enabled",
    next_run_at: cron.next_run_date,
    last_run_at: null,
    last_run_id: null,
    last_thread_id: null,
    last_error: null,
    run_count: 0,
    created_at: cron.created_at,
    updated_at: cron.updated_at,
  };
}

function titleOf(cron: CronRow, prompt: string): string {
  for (const key of ["title", "name"]) {
    const value = cron.metadata[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  const firstLine = prompt.split("\n", 1)[0]?.trim() ?? "";
  if (firstLine !== "") {
    return firstLine.length > TITLE_CHARS ? `${firstLine.slice(0, TITLE_CHARS)}…` : firstLine;
  }
  return `Scheduled run (${cron.schedule})`;
}

/** The text of the last user message in the payload's `input.messages`, else "". */
function promptOf(payload: Record<string, unknown>): string {
  const input = payload.input;
  if (!isRecord(input) || !Array.isArray(input.messages)) return "";
  for (const message of [...input.messages].reverse()) {
    if (!isRecord(message)) continue;
    const role = message.role ?? message.type;
    if (role !== "user" && role !== "human") continue;
    return textOf(message.content);
  }
  return "";
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
    .join("");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
