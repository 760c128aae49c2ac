import type { AIMessage } from "@langchain/core/messages";
import { appendText, contentText, isAIMessage, withAIFields } from "../conversation.js";
import type { AgentMiddleware } from "../types.js";
import type { SafetyDetector, SafetyTermination } from "./safety-detectors.js";

/** The run stop reason when a provider's safety stop suppressed the answer's tool calls. */
export const SAFETY_TERMINATED = "safety_terminated";

/**
 * Answers a provider stopped for safety (OpenAI `content_filter`, Anthropic `refusal`, Gemini
 * `SAFETY` …) may still carry tool calls, cut off mid-argument: they are stripped so they never
 * run, with a note for the user. A blank answer gets the note too, so an empty assistant message
 * is never stored (strict providers reject it on every later request). A stopped answer with text
 * and no tool calls is left as it is. `additional_kwargs.safety_termination` says what happened;
 * tool arguments are never recorded (they are what the provider filtered).
 */
export function createSafetyFinishReasonMiddleware(options: {
  detectors: readonly SafetyDetector[];
}): AgentMiddleware {
  return {
    name: "SafetyFinishReasonMiddleware",
    tag: "safety_termination",
    async afterModel(state, runtime) {
      const last = state.messages.at(-1);
      if (!isAIMessage(last)) return undefined;
      const termination = detect(options.detectors, last);
      if (!termination) return undefined;
      const calls = last.tool_calls ?? [];
      if (calls.length === 0 && contentText(last.content).trim() !== "") return undefined;
      const names = calls.map((call) => call.name || "unknown");
      runtime.record("afterModel", SAFETY_TERMINATED, {
        detector: termination.detector,
        reason_field: termination.reason_field,
        reason_value: termination.reason_value,
        suppressed_tool_call_names: names,
        message_id: last.id ?? null,
      });
      return { update: { messages: [suppressed(last, termination, names)] } };
    },
  };
}

function detect(
  detectors: readonly SafetyDetector[],
  message: AIMessage,
): SafetyTermination | null {
  for (const detector of detectors) {
    const found = detector.detect(message);
    if (found) return found;
  }
  return null;
}

function suppressed(
  message: AIMessage,
  termination: SafetyTermination,
  names: string[],
): AIMessage {
  const signal = `${termination.reason_field}=${termination.reason_value}, detector=${termination.detector}`;
  const note =
    names.length > 0
      ? `The model provider stopped this response with a safety signal (${signal}). Its tool calls were not run, because their arguments may be cut off. Please rephrase the request or ask for a narrower output.`
      : `The model provider stopped this response with a safety signal (${signal}) and returned no content. Please rephrase the request or ask for a narrower output.`;
  return withAIFields(message, {
    content: appendText(message.content, note),
    tool_calls: [],
    invalid_tool_calls: [],
    additional_kwargs: {
      ...message.additional_kwargs,
      stop_reason: SAFETY_TERMINATED,
      safety_termination: {
        detector: termination.detector,
        reason_field: termination.reason_field,
        reason_value: termination.reason_value,
        suppressed_tool_call_count: names.length,
        suppressed_tool_call_names: names,
        extras: termination.extras,
      },
    },
  });
}
