import { randomUUID } from "node:crypto";
import {
  type BaseMessage,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
} from "@langchain/core/messages";
import { REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import type { ThreadState } from "../../lead-agent/thread-state.js";
import { HIDDEN_MESSAGE_NAMES, isToolMessage } from "../conversation.js";
import { invokeMiddlewareModel } from "../middleware-model-call.js";
import type { AgentMiddleware } from "../types.js";
import { estimateTokens, messageTokens, transcriptLine } from "./conversation-size.js";
import type { SummarizationConfig } from "./summarization-config.js";

const DEFAULT_PROMPT = `You compress conversations between a user and an AI agent so the agent can continue the work. Write a concise summary of the conversation below: the user's goals and constraints, decisions made, what was done (files written, commands run, results found), and what is still open. Keep names, paths, numbers and identifiers exactly. Reply with the summary only.`;

export interface SummarizationOptions {
  config: SummarizationConfig;
  /** The model's context window in tokens, for `fraction` triggers. */
  contextWindow?: number | undefined;
}

/**
 * Keeps long threads within the model's context: before a model call, when a
 * trigger fires, the oldest messages (all but the kept tail, never splitting a tool call from
 * its results) are summarized by a side call tagged `middleware:summarize`, and the thread is
 * rewritten as one `summary` message plus the kept tail; `summary_text` keeps the summary. An
 * empty or failed summary leaves the history as it was.
 */
export function createSummarizationMiddleware(options: SummarizationOptions): AgentMiddleware {
  const { config } = options;
  return {
    name: "SummarizationMiddleware",
    tag: "summarization",
    async beforeModel(state, runtime) {
      if (!config.enabled || !triggered(state, options)) return undefined;
      const cut = splitPoint(state.messages, config);
      if (cut <= 0) return undefined;
      const older = state.messages
        .slice(0, cut)
        .filter((m) => m.name !== HIDDEN_MESSAGE_NAMES.summary);
      const kept = state.messages.slice(cut);
      let summary = "";
      try {
        summary = await invokeMiddlewareModel(
          runtime,
          "middleware:summarize",
          [
            new SystemMessage(config.summary_prompt ?? DEFAULT_PROMPT),
            new HumanMessage(transcriptOf(older, state.summary_text, config)),
          ],
          config.model_name,
        );
      } catch (error) {
        if (runtime.config.signal?.aborted) throw error;
        summary = "";
      }
      if (!summary) {
        runtime.record("beforeModel", "summarize_failed", { messages: state.messages.length });
        return undefined;
      }
      runtime.record("beforeModel", "summarized", {
        summarized_messages: older.length,
        kept_messages: kept.length,
        summary_chars: summary.length,
      });
      const summaryMessage = new HumanMessage({
        id: `summary:${randomUUID()}`,
        name: HIDDEN_MESSAGE_NAMES.summary,
        content: `<summary>\nThe earlier part of this conversation, summarized:\n${summary}\n</summary>`,
      });
      return {
        update: {
          messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), summaryMessage, ...kept],
          summary_text: summary,
        },
      };
    },
  };
}

function triggered(state: ThreadState, options: SummarizationOptions): boolean {
  const tokens =
    state.messages.reduce((sum, m) => sum + messageTokens(m), 0) +
    estimateTokens(state.summary_text ?? "");
  return options.config.trigger.some((trigger) => {
    if (trigger.type === "messages") return state.messages.length >= trigger.value;
    if (trigger.type === "tokens") return tokens >= trigger.value;
    return options.contextWindow !== undefined && tokens >= trigger.value * options.contextWindow;
  });
}

/** Index of the first kept message; results stay with the AI message that asked for them. */
function splitPoint(messages: readonly BaseMessage[], config: SummarizationConfig): number {
  let cut: number;
  if (config.keep.type === "messages") {
    cut = messages.length - config.keep.value;
  } else {
    let budget = config.keep.value;
    cut = messages.length;
    while (cut > 0) {
      const message = messages[cut - 1];
      if (!message) break;
      const size = messageTokens(message);
      if (size > budget) break;
      budget -= size;
      cut -= 1;
    }
  }
  while (cut > 0 && isToolMessage(messages[cut])) cut -= 1;
  return cut;
}

function transcriptOf(
  older: readonly BaseMessage[],
  previousSummary: string | null,
  config: SummarizationConfig,
): string {
  const budget = config.trim_tokens_to_summarize * 4;
  let transcript = older.map(transcriptLine).join("\n\n");
  // The latest part matters most for continuing the work.
  if (transcript.length > budget) transcript = `…${transcript.slice(transcript.length - budget)}`;
  const previous = previousSummary ? `Summary of what came before:\n${previousSummary}\n\n` : "";
  return `${previous}Conversation to summarize:\n${transcript}`;
}
