import { apiFetch, apiJson } from "../api/http.js";
import { chatPreview, PREVIEW_KEY } from "../threads/thread-list.js";

/** A cron as `/api/runs/crons…` returns it (docs/API.md "Crons (scheduled runs)"). */
export interface Cron {
  cron_id: string;
  assistant_id: string;
  /** Null: stateless, each firing on a new thread. */
  thread_id: string | null;
  schedule: string;
  timezone: string | null;
  next_run_date: string | null;
  enabled: boolean;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  created_at: string;
}

/** A run as `GET /threads/{id}/runs` lists it. */
export interface RunSummary {
  run_id: string;
  thread_id: string;
  status: string;
  created_at: string;
  metadata: Record<string, unknown>;
}

/** What the form produces for a new task or an edit. */
export interface TaskDraft {
  title: string;
  prompt: string;
  schedule: string;
  timezone: string;
  /** Null: the server's default model. */
  model: string | null;
  /** `chat`: every run in one chat (a thread cron); `fresh`: a new chat each run. */
  target: "chat" | "fresh";
}

const ASSISTANT = "lead_agent";
/** Marks the runs of one task (the cron's metadata rides along on every firing's run). */
const TASK_KEY = "task_key";
const JSON_HEADERS = { "Content-Type": "application/json" };

export function listCrons(): Promise<Cron[]> {
  return apiJson("/runs/crons/search", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ limit: 200, sort_by: "created_at", sort_order: "desc" }),
  });
}

/** The run fields each firing submits: the prompt as the user's message, the model if picked. */
function runFields(draft: TaskDraft, metadata: Record<string, unknown>) {
  return {
    input: { messages: [{ type: "human", content: draft.prompt }] },
    config: { configurable: draft.model ? { model_name: draft.model } : {} },
    metadata: { ...metadata, title: draft.title },
    schedule: draft.schedule,
    timezone: draft.timezone,
  };
}

/**
 * A task that runs in one chat gets that chat first (named after the task in the chat list);
 * a task that starts a new chat each run is a stateless cron that keeps its chats.
 */
export async function createTask(draft: TaskDraft): Promise<Cron> {
  const fields = runFields(draft, { [TASK_KEY]: crypto.randomUUID() });
  if (draft.target === "fresh") {
    return apiJson("/runs/crons", {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ assistant_id: ASSISTANT, ...fields, on_run_completed: "keep" }),
    });
  }
  const thread = await apiJson<{ thread_id: string }>("/threads", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ metadata: { [PREVIEW_KEY]: chatPreview(draft.title || draft.prompt) } }),
  });
  try {
    return await apiJson(`/threads/${encodeURIComponent(thread.thread_id)}/runs/crons`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ assistant_id: ASSISTANT, ...fields }),
    });
  } catch (error) {
    // A refused task leaves no empty chat behind; the refusal is what the user needs to see.
    await apiFetch(`/threads/${encodeURIComponent(thread.thread_id)}`, { method: "DELETE" }).catch(
      () => undefined,
    );
    throw error;
  }
}

export function updateTask(cron: Cron, draft: TaskDraft): Promise<Cron> {
  return patchCron(cron.cron_id, runFields(draft, cron.metadata));
}

export function setTaskEnabled(cronId: string, enabled: boolean): Promise<Cron> {
  return patchCron(cronId, { enabled });
}

function patchCron(cronId: string, body: Record<string, unknown>): Promise<Cron> {
  return apiJson(`/runs/crons/${encodeURIComponent(cronId)}`, {
    method: "PATCH",
    headers: JSON_HEADERS,
    body: JSON.stringify(body),
  });
}

export async function deleteTask(cronId: string): Promise<void> {
  await apiFetch(`/runs/crons/${encodeURIComponent(cronId)}`, { method: "DELETE" });
}

/**
 * The newest run a thread task's firings made: the thread's newest run carrying the task's key
 * (a task made elsewhere, without one: the thread's newest run). Null when none yet.
 */
export async function lastTaskRun(cron: Cron): Promise<RunSummary | null> {
  if (cron.thread_id === null) return null;
  const runs = await apiJson<RunSummary[]>(
    `/threads/${encodeURIComponent(cron.thread_id)}/runs?limit=50`,
  );
  const key = cron.metadata[TASK_KEY];
  if (typeof key !== "string") return runs[0] ?? null;
  return runs.find((run) => run.metadata?.[TASK_KEY] === key) ?? null;
}

/** The task's prompt: the last user message of the run input each firing submits. */
export function promptOf(cron: Cron): string {
  const input = cron.payload.input;
  if (typeof input !== "object" || input === null) return "";
  const messages = (input as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return "";
  for (const message of [...messages].reverse()) {
    if (typeof message !== "object" || message === null) continue;
    const { type, role, content } = message as Record<string, unknown>;
    if (type !== "human" && role !== "user" && role !== "human") continue;
    if (typeof content === "string") return content;
    if (Array.isArray(content))
      return content
        .map((part) =>
          typeof part === "object" && part !== null && "text" in part ? String(part.text) : "",
        )
        .join("");
  }
  return "";
}

/** The task's name: `metadata.title`, else the prompt's first line. */
export function titleOf(cron: Cron): string {
  const title = cron.metadata.title ?? cron.metadata.name;
  if (typeof title === "string" && title.trim()) return title.trim();
  return promptOf(cron).split("\n")[0]?.slice(0, 80) ?? "";
}

/** The model the task's runs name, or null (the server's default). */
export function modelOf(cron: Cron): string | null {
  const config = cron.payload.config;
  if (typeof config !== "object" || config === null) return null;
  const configurable = (config as { configurable?: Record<string, unknown> }).configurable;
  const model = configurable?.model_name;
  return typeof model === "string" ? model : null;
}
