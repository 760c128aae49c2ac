import { type AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { appendText, HIDDEN_MESSAGE_NAMES, isAIMessage, withAIFields } from "../conversation.js";
import type { AgentMiddleware, MiddlewareRuntime } from "../types.js";
import type { TokenBudgetConfig } from "./token-budget-config.js";

/** The run stop reason when the token budget cut the run short. */
export const TOKEN_CAPPED = "token_capped";

/** Runs tracked at once; an abandoned run's entry is dropped first. */
const MAX_TRACKED_RUNS = 1000;

interface RunUsage {
  /** Answers that were in the thread before the run started: not this run's spending. */
  earlier: Set<string>;
  warned: boolean;
}

export interface BudgetCheck {
  level: "ok" | "warn" | "stop";
  /** The limit closest to being reached. */
  limit: "total" | "input" | "output";
  used: number;
  budget: number;
}

/**
 * Per-run token limits. After each answer the usage of the run's answers (their
 * `usage_metadata`) is summed; at `warn_threshold` of any limit the next model request carries a
 * one-time warning, and at `hard_stop_threshold` the answer's tool calls are stripped, a note is
 * appended and the message is marked `stop_reason: token_capped`, which ends the run.
 */
export function createTokenBudgetMiddleware(config: TokenBudgetConfig): AgentMiddleware {
  const runs = new Map<string, RunUsage>();
  const runOf = (runtime: MiddlewareRuntime): RunUsage => {
    const key = runtime.runId ?? "unknown-run";
    let usage = runs.get(key);
    if (!usage) {
      usage = { earlier: new Set(), warned: false };
      runs.set(key, usage);
      const oldest = runs.keys().next().value;
      if (runs.size > MAX_TRACKED_RUNS && oldest !== undefined) runs.delete(oldest);
    }
    return usage;
  };
  return {
    name: "TokenBudgetMiddleware",
    tag: "token_budget",
    async beforeAgent(state, runtime) {
      const usage = runOf(runtime);
      for (const message of state.messages) {
        if (isAIMessage(message) && message.id) usage.earlier.add(message.id);
      }
      return undefined;
    },
    async afterModel(state, runtime) {
      const last = state.messages.at(-1);
      if (!isAIMessage(last)) return undefined;
      const usage = runOf(runtime);
      const check = checkBudget(state.messages, usage.earlier, config);
      if (check.level !== "stop") return undefined;
      runtime.record("afterModel", TOKEN_CAPPED, { ...check, message_id: last.id ?? null });
      return { update: { messages: [budgetStop(last, check)] } };
    },
    async wrapModelCall(request, next, runtime) {
      const usage = runOf(runtime);
      const check = checkBudget(request.messages, usage.earlier, config);
      if (check.level !== "warn" || usage.warned) return next(request);
      usage.warned = true;
      runtime.record("wrapModelCall", "budget_warning", check);
      const warning = new HumanMessage({
        content: warningText(check),
        name: HIDDEN_MESSAGE_NAMES.budgetWarning,
      });
      return next({ ...request, messages: [...request.messages, warning] });
    },
    async afterAgent(_state, runtime) {
      runs.delete(runtime.runId ?? "unknown-run");
      return undefined;
    },
  };
}

/** Where the run's answers stand against the limits. */
export function checkBudget(
  messages: readonly BaseMessage[],
  earlier: ReadonlySet<string>,
  config: TokenBudgetConfig,
): BudgetCheck {
  let input = 0;
  let output = 0;
  for (const message of messages) {
    if (!isAIMessage(message) || (message.id && earlier.has(message.id))) continue;
    input += message.usage_metadata?.input_tokens ?? 0;
    output += message.usage_metadata?.output_tokens ?? 0;
  }
  const limits: Array<Omit<BudgetCheck, "level">> = [
    { limit: "total", used: input + output, budget: config.max_tokens },
  ];
  if (config.max_input_tokens)
    limits.push({ limit: "input", used: input, budget: config.max_input_tokens });
  if (config.max_output_tokens)
    limits.push({ limit: "output", used: output, budget: config.max_output_tokens });
  const closest = limits.reduce((a, b) => (b.used / b.budget > a.used / a.budget ? b : a));
  const share = closest.used / closest.budget;
  const level =
    closest.used > 0 && share >= config.hard_stop_threshold
      ? "stop"
      : closest.used > 0 && share >= config.warn_threshold
        ? "warn"
        : "ok";
  return { level, ...closest };
}

function warningText(check: BudgetCheck): string {
  const percent = Math.round((check.used / check.budget) * 100);
  return `[TOKEN BUDGET WARNING] You have used ${check.used} of your ${check.budget} ${check.limit} token budget (${percent}%). Wrap up your current work and give your final answer; avoid new tool calls unless they are essential.`;
}

function budgetStop(message: AIMessage, check: BudgetCheck): AIMessage {
  return withAIFields(message, {
    content: appendText(
      message.content,
      `[TOKEN BUDGET EXCEEDED] This run used ${check.used} ${check.limit} tokens, over its limit of ${check.budget}, so no further tools were run. Here is my answer with what I have so far.`,
    ),
    tool_calls: [],
    invalid_tool_calls: [],
    additional_kwargs: { ...message.additional_kwargs, stop_reason: TOKEN_CAPPED },
  });
}
