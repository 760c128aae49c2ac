import { type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { Command, isCommand } from "@langchain/langgraph";
import {
  applyToolOutputBudget,
  type BudgetOutcome,
  exceedsFallbackBudget,
} from "../../tools/output-budget/apply-tool-output-budget.js";
import type { ExternalizeSeams } from "../../tools/output-budget/externalize-tool-output.js";
import type { ToolOutputConfig } from "../../tools/output-budget/tool-output-config.js";
import type { AgentMiddleware, MiddlewareRuntime, ToolCallResult } from "../types.js";

export interface ToolOutputBudgetOptions {
  config: ToolOutputConfig;
  seams?: ExternalizeSeams;
}

/**
 * Keeps tool outputs within the context budget. Outermost tool wrapper, so it
 * sees the final ToolMessage (also inside a tool's Command). Large outputs are saved under
 * `outputs/<storage_subdir>/` and replaced by a synopsis with the file's virtual path; when
 * saving is impossible they are cut to head + tail. Before each model call, older outputs still
 * over budget are truncated in the request only (the stored thread keeps them).
 */
export function createToolOutputBudgetMiddleware(
  options: ToolOutputBudgetOptions,
): AgentMiddleware {
  const { config } = options;
  return {
    name: "ToolOutputBudgetMiddleware",
    tag: "tool_output_budget",
    async wrapToolCall(request, next, runtime) {
      const result = await next(request);
      if (!config.enabled) return result;
      const outputsPath = request.state.thread_data?.outputs_path ?? null;
      const budget = async (message: ToolMessage) => {
        const outcome = await applyToolOutputBudget(message, {
          config,
          outputsPath,
          allowExternalize: true,
          ...(options.seams ? { seams: options.seams } : {}),
        });
        recordOutcome(runtime, outcome);
        return outcome.message;
      };
      return budgetResult(result, budget);
    },
    async wrapModelCall(request, next, runtime) {
      if (
        !request.messages.some((m) => ToolMessage.isInstance(m) && exceedsFallbackBudget(m, config))
      ) {
        return next(request);
      }
      const messages: BaseMessage[] = [];
      const truncated: string[] = [];
      for (const message of request.messages) {
        if (!ToolMessage.isInstance(message) || !exceedsFallbackBudget(message, config)) {
          messages.push(message);
          continue;
        }
        const outcome = await applyToolOutputBudget(message, {
          config,
          outputsPath: null,
          allowExternalize: false,
        });
        messages.push(outcome.message);
        truncated.push(message.tool_call_id);
      }
      runtime.record("wrapModelCall", "truncated_history", { tool_call_ids: truncated });
      return next({ ...request, messages });
    },
  };
}

async function budgetResult(
  result: ToolCallResult,
  budget: (message: ToolMessage) => Promise<ToolMessage>,
): Promise<ToolCallResult> {
  if (ToolMessage.isInstance(result)) return budget(result);
  if (!isCommand(result)) return result;
  const update = result.update;
  if (!update || Array.isArray(update) || !Array.isArray(update.messages)) return result;
  const messages: unknown[] = await Promise.all(
    update.messages.map((item: unknown) => (ToolMessage.isInstance(item) ? budget(item) : item)),
  );
  // A copy: the tool's own Command object is never mutated.
  return new Command({
    update: { ...update, messages },
    ...(result.goto !== undefined ? { goto: result.goto } : {}),
  });
}

function recordOutcome(runtime: MiddlewareRuntime, outcome: BudgetOutcome): void {
  if (!outcome.action) return;
  runtime.record("wrapToolCall", outcome.action, {
    tool: outcome.message.name ?? null,
    tool_call_id: outcome.message.tool_call_id,
    original_chars: outcome.originalChars,
    kept_chars: typeof outcome.message.content === "string" ? outcome.message.content.length : null,
    path: outcome.path,
  });
}
