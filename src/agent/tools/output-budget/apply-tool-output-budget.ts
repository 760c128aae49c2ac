import type { MessageContent } from "@langchain/core/messages";
import { ToolMessage } from "@langchain/core/messages";
import { type ExternalizeSeams, externalizeToolOutput } from "./externalize-tool-output.js";
import { truncateToolOutput } from "./fallback-truncation.js";
import { buildOutputSynopsis } from "./output-synopsis.js";
import type { ToolOutputConfig } from "./tool-output-config.js";

export type BudgetAction = "externalized" | "truncated";

export interface BudgetOutcome {
  message: ToolMessage;
  action: BudgetAction | null;
  originalChars: number;
  /** Virtual path of the saved output when externalized. */
  path: string | null;
}

export interface BudgetTarget {
  config: ToolOutputConfig;
  /** Host path of the thread's outputs folder; null when unknown (then truncation only). */
  outputsPath: string | null;
  /** false on the model-call path: historical messages are only ever truncated, never saved. */
  allowExternalize: boolean;
  seams?: ExternalizeSeams;
}

/**
 * Applies the tool output budget to one ToolMessage: over the threshold, the
 * output is saved to a file and replaced by a synopsis; if that is impossible and it is over the
 * fallback budget, it is cut to head + tail. Anything else (small, exempt, multimodal) is
 * returned as it is. The message's other fields are kept.
 */
export async function applyToolOutputBudget(
  message: ToolMessage,
  target: BudgetTarget,
): Promise<BudgetOutcome> {
  const { config } = target;
  const toolName = message.name ?? "tool";
  const text = textOnly(message.content);
  const unchanged: BudgetOutcome = {
    message,
    action: null,
    originalChars: text?.length ?? 0,
    path: null,
  };
  if (!config.enabled || text === null || config.exempt_tools.includes(toolName)) return unchanged;
  const threshold = config.tool_overrides[toolName] ?? config.externalize_min_chars;
  const fallbackMax = config.fallback_max_chars;
  const overThreshold = threshold > 0 && text.length > threshold;
  const overFallback = fallbackMax > 0 && text.length > fallbackMax;
  if (!overThreshold && !overFallback) return unchanged;

  if (overThreshold && target.allowExternalize && target.outputsPath) {
    const path = await externalizeToolOutput(
      text,
      {
        toolName,
        toolCallId: message.tool_call_id,
        outputsPath: target.outputsPath,
        storageSubdir: config.storage_subdir,
      },
      target.seams,
    );
    if (path) {
      const synopsis = buildOutputSynopsis(text, {
        toolName,
        virtualPath: path,
        headChars: config.preview_head_chars,
        tailChars: config.preview_tail_chars,
      });
      return outcome(message, synopsis, "externalized", text.length, path);
    }
  }
  if (!overFallback) return unchanged;
  const truncated = truncateToolOutput(text, toolName, {
    maxChars: fallbackMax,
    headChars: config.fallback_head_chars,
    tailChars: config.fallback_tail_chars,
  });
  return outcome(message, truncated, "truncated", text.length, null);
}

/** A cheap check for the model-call path: is anything here over the fallback budget? */
export function exceedsFallbackBudget(message: ToolMessage, config: ToolOutputConfig): boolean {
  if (!config.enabled || config.fallback_max_chars <= 0) return false;
  if (config.exempt_tools.includes(message.name ?? "")) return false;
  const text = textOnly(message.content);
  return text !== null && text.length > config.fallback_max_chars;
}

function outcome(
  message: ToolMessage,
  content: string,
  action: BudgetAction,
  originalChars: number,
  path: string | null,
): BudgetOutcome {
  const budgeted = new ToolMessage({
    content,
    tool_call_id: message.tool_call_id,
    name: message.name,
    id: message.id,
    status: message.status,
    artifact: message.artifact,
    additional_kwargs: {
      ...message.additional_kwargs,
      tool_output_budget: { action, original_chars: originalChars, path },
    },
    response_metadata: message.response_metadata,
  });
  return { message: budgeted, action, originalChars, path };
}

/** Text content, or null for anything with non-text parts (images stay untouched). */
function textOnly(content: MessageContent): string | null {
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") parts.push(part);
    else if (part.type === "text" && typeof part.text === "string") parts.push(part.text);
    else return null;
  }
  return parts.join("\n");
}
