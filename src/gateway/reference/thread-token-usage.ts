import type { RunRow, RunStatus } from "../../ports/run-types.js";

/** The reference's `GET /threads/{id}/token-usage` answer (its field names and nesting). */
export interface ThreadTokenUsage {
  thread_id: string;
  total_tokens: number;
  total_input_tokens: number;
  total_output_tokens: number;
  total_runs: number;
  /** Per model: its tokens, and the runs it appeared in (a run with two models counts twice). */
  by_model: Record<string, { tokens: number; runs: number }>;
  by_caller: { lead_agent: number; subagent: number; middleware: number };
  context_usage: ContextUsage | null;
}

/** How full the model's context is with the thread's current messages (an estimate). */
export interface ContextUsage {
  token_count: number;
  max_context_tokens: number | null;
  percentage: number | null;
}

/**
 * Runs whose tokens count: every finished run (its totals are written as it finishes, whatever
 * the outcome) and, when asked, the running ones with what they used so far.
 */
export function countedStatuses(includeActive: boolean): ReadonlySet<RunStatus> {
  const finished: RunStatus[] = ["success", "error", "timeout", "interrupted"];
  return new Set(includeActive ? [...finished, "running"] : finished);
}

/** Sums the runs' token totals; a run without per-model figures counts under its model name. */
export function aggregateRunTokens(
  threadId: string,
  runs: readonly RunRow[],
): Omit<ThreadTokenUsage, "context_usage"> {
  const byModel: Record<string, { tokens: number; runs: number }> = {};
  const add = (model: string, tokens: number) => {
    const entry = byModel[model] ?? { tokens: 0, runs: 0 };
    entry.tokens += tokens;
    entry.runs += 1;
    byModel[model] = entry;
  };
  const usage = {
    thread_id: threadId,
    total_tokens: 0,
    total_input_tokens: 0,
    total_output_tokens: 0,
    total_runs: runs.length,
    by_model: byModel,
    by_caller: { lead_agent: 0, subagent: 0, middleware: 0 },
  };
  for (const run of runs) {
    usage.total_tokens += run.total_tokens;
    usage.total_input_tokens += run.total_input_tokens;
    usage.total_output_tokens += run.total_output_tokens;
    usage.by_caller.lead_agent += run.lead_agent_tokens;
    usage.by_caller.subagent += run.subagent_tokens;
    usage.by_caller.middleware += run.middleware_tokens;
    const perModel = Object.entries(run.token_usage_by_model);
    if (perModel.length > 0) {
      for (const [model, figures] of perModel) add(model, figures.total_tokens);
    } else if (run.total_tokens > 0) {
      add(run.model_name ?? "unknown", run.total_tokens);
    }
  }
  return usage;
}

const CHARS_PER_TOKEN = 4;
/** Role and framing each message costs beyond its text. */
const TOKENS_PER_MESSAGE = 3;

/**
 * A provider-free estimate of the tokens the thread's messages take (about four characters a
 * token, plus a little per message): enough for a gauge, never for billing.
 */
export function estimateMessageTokens(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  let chars = 0;
  for (const message of messages) {
    if (typeof message !== "object" || message === null) continue;
    const fields = message as Record<string, unknown>;
    chars += textLength(fields.content);
    if (Array.isArray(fields.tool_calls)) chars += JSON.stringify(fields.tool_calls).length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE * messages.length;
}

function textLength(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let length = 0;
  for (const part of content) {
    if (typeof part === "string") length += part.length;
    else if (typeof part === "object" && part !== null && "text" in part) {
      const text = part.text;
      if (typeof text === "string") length += text.length;
    }
  }
  return length;
}

export function contextUsage(tokenCount: number, maxContextTokens: number | null): ContextUsage {
  const percentage =
    maxContextTokens && maxContextTokens > 0
      ? Math.round((tokenCount / maxContextTokens) * 1000) / 10
      : null;
  return { token_count: tokenCount, max_context_tokens: maxContextTokens, percentage };
}
