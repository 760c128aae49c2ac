import { type AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import {
  appendText,
  currentExchange,
  HIDDEN_MESSAGE_NAMES,
  isAIMessage,
  withAIFields,
} from "../conversation.js";
import type { AgentMiddleware } from "../types.js";
import type { LoopDetectionConfig } from "./loop-detection-config.js";
import { toolCallsSignature } from "./tool-call-signature.js";

/** The run stop reason when repeated tool calls were cut off. */
export const LOOP_CAPPED = "loop_capped";

export interface LoopFinding {
  level: "warn" | "stop";
  reason: "repeated_calls" | "tool_frequency";
  /** The repeated tool names, or the over-used tool. */
  tools: string[];
  count: number;
}

/**
 * Stops an agent that keeps making the same tool calls. The history is read
 * from the current exchange (everything after the latest user message), so the check needs no
 * memory of its own and a new user message starts afresh. At `warn_threshold` the next model
 * request carries a warning (request-only, so it never separates a tool call from its result);
 * at `hard_limit` the answer's tool calls are stripped, a `[FORCED STOP]` note is appended and the
 * message is marked `stop_reason: loop_capped`, which ends the turn.
 */
export function createLoopDetectionMiddleware(config: LoopDetectionConfig): AgentMiddleware {
  return {
    name: "LoopDetectionMiddleware",
    tag: "loop_detection",
    async afterModel(state, runtime) {
      const last = state.messages.at(-1);
      if (!isAIMessage(last) || (last.tool_calls?.length ?? 0) === 0) return undefined;
      const finding = findLoop(currentExchange(state.messages), config);
      if (!finding) return undefined;
      const changes = { reason: finding.reason, tools: finding.tools, count: finding.count };
      if (finding.level === "warn") {
        runtime.record("afterModel", "loop_warning", changes);
        return undefined;
      }
      runtime.record("afterModel", LOOP_CAPPED, { ...changes, message_id: last.id ?? null });
      return { update: { messages: [forcedStop(last, finding)] } };
    },
    async wrapModelCall(request, next) {
      const finding = findLoop(currentExchange(request.messages), config);
      if (finding?.level !== "warn") return next(request);
      const warning = new HumanMessage({
        content: warningText(finding),
        name: HIDDEN_MESSAGE_NAMES.loopWarning,
      });
      return next({ ...request, messages: [...request.messages, warning] });
    },
  };
}

/** What the latest tool-calling answer of an exchange amounts to, if anything. */
export function findLoop(
  exchange: readonly BaseMessage[],
  config: LoopDetectionConfig,
): LoopFinding | null {
  const answers = exchange.filter(
    (message): message is AIMessage =>
      isAIMessage(message) && (message.tool_calls?.length ?? 0) > 0,
  );
  const latest = answers.at(-1);
  if (!latest) return null;
  const window = answers
    .slice(-config.window_size)
    .map((m) => toolCallsSignature(m.tool_calls ?? []));
  const signature = window.at(-1);
  const repeats = window.filter((hash) => hash === signature).length;
  const latestTools = [...new Set((latest.tool_calls ?? []).map((call) => call.name))];
  const repeated: LoopFinding = {
    level: "warn",
    reason: "repeated_calls",
    tools: latestTools,
    count: repeats,
  };
  if (repeats >= config.hard_limit) return { ...repeated, level: "stop" };

  const frequency = toolFrequency(answers, latestTools, config);
  if (frequency?.level === "stop") return frequency;
  if (repeats >= config.warn_threshold) return repeated;
  return frequency;
}

function toolFrequency(
  answers: readonly AIMessage[],
  tools: readonly string[],
  config: LoopDetectionConfig,
): LoopFinding | null {
  let warning: LoopFinding | null = null;
  for (const tool of tools) {
    const count = answers.flatMap((m) => m.tool_calls ?? []).filter((c) => c.name === tool).length;
    const override = config.tool_freq_overrides[tool];
    const hard = override?.hard_limit ?? config.tool_freq_hard_limit;
    const warn = override?.warn ?? config.tool_freq_warn;
    if (count >= hard) return { level: "stop", reason: "tool_frequency", tools: [tool], count };
    if (count >= warn)
      warning ??= { level: "warn", reason: "tool_frequency", tools: [tool], count };
  }
  return warning;
}

function warningText(finding: LoopFinding): string {
  const what =
    finding.reason === "repeated_calls"
      ? `the same tool calls (${finding.tools.join(", ")}) ${finding.count} times`
      : `the ${finding.tools.join(", ")} tool ${finding.count} times`;
  return `[LOOP DETECTED] You are repeating ${what}. Repeating them will not give new results: use what you already have, try a different approach, or give your final answer.`;
}

function forcedStop(message: AIMessage, finding: LoopFinding): AIMessage {
  const what =
    finding.reason === "repeated_calls"
      ? `The same tool calls (${finding.tools.join(", ")}) were repeated ${finding.count} times`
      : `The ${finding.tools.join(", ")} tool was called ${finding.count} times`;
  return withAIFields(message, {
    content: appendText(
      message.content,
      `[FORCED STOP] ${what}, so they were not run again. Here is my answer with what I have so far.`,
    ),
    tool_calls: [],
    invalid_tool_calls: [],
    additional_kwargs: { ...message.additional_kwargs, stop_reason: LOOP_CAPPED },
  });
}
