import { isPlainObject } from "../../../core/config/env-expansion.js";
import {
  restoreAssistantEntries,
  restoreKwarg,
  restoreThoughtSignatures,
} from "./assistant-replay.js";
import { type ModelDialect, type ReasoningFields, replaceAIFields } from "./dialect.js";

/**
 * OpenAI gateways in front of Gemini (the reference's PatchedChatOpenAI): tool-call thought
 * signatures go back verbatim. A no-op for endpoints that send none.
 */
export const OPENAI_GATEWAY_DIALECT: ModelDialect = {
  name: "openai",
  rewriteRequest(body, originals) {
    restoreAssistantEntries(messagesOf(body), originals, restoreThoughtSignatures);
  },
};

/** Gemini's OpenAI-compatible endpoint: its key names, and thought signatures as above. */
export const GEMINI_DIALECT: ModelDialect = {
  name: "gemini",
  adjustSettings: (settings) =>
    renameKeys(settings, { gemini_api_key: "api_key", google_api_key: "api_key" }),
  rewriteRequest: OPENAI_GATEWAY_DIALECT.rewriteRequest,
};

/**
 * DeepSeek-style thinking (DeepSeek, Doubao/Volcengine, Kimi, GLM, MiMo): answers carry
 * `reasoning_content`, which the provider wants back on every earlier assistant message once tool
 * calls are in the history (it answers 400 otherwise).
 */
export const REASONING_CONTENT_DIALECT: ModelDialect = {
  name: "reasoning_content",
  rewriteRequest(body, originals) {
    restoreAssistantEntries(messagesOf(body), originals, restoreKwarg("reasoning_content"));
  },
};

/** StepFun: reasoning arrives as `reasoning` (or `reasoning_content`) and is replayed as the latter. */
export const STEPFUN_DIALECT: ModelDialect = {
  name: "stepfun",
  rewriteRequest: REASONING_CONTENT_DIALECT.rewriteRequest,
  reasoningOf: (raw) => textField(raw, "reasoning"),
};

/**
 * vLLM's reasoning parsers answer in `reasoning` and expect it back on earlier turns; Qwen-style
 * templates switch thinking with `chat_template_kwargs.enable_thinking` (older configs wrote
 * `thinking`, which is renamed). `cumulative_stream_usage` needs no switch: the client keeps the
 * last usage a stream reports.
 */
export const VLLM_DIALECT: ModelDialect = {
  name: "vllm",
  adjustSettings(settings) {
    const { cumulative_stream_usage: _cumulative, ...rest } = settings;
    return rest;
  },
  rewriteRequest(body, originals) {
    renameTemplateThinking(body);
    restoreAssistantEntries(messagesOf(body), originals, (entry, message) => {
      const value =
        message.additional_kwargs.reasoning ?? message.additional_kwargs.reasoning_content;
      if (value !== undefined && value !== null) entry.reasoning = value;
    });
  },
  reasoningOf(raw) {
    if (raw.reasoning === undefined || raw.reasoning === null) return undefined;
    return { reasoning_content: reasoningText(raw.reasoning), extra: { reasoning: raw.reasoning } };
  },
};

/**
 * Ollama through its OpenAI-compatible `/v1`: `num_predict` is `max_tokens` there, its thinking
 * arrives as `reasoning`, and the native `reasoning: false` switch becomes `reasoning_effort: none`.
 */
export const OLLAMA_DIALECT: ModelDialect = {
  name: "ollama",
  adjustSettings(settings) {
    const { reasoning, num_predict, ...rest } = settings;
    if (num_predict !== undefined && rest.max_tokens === undefined) rest.max_tokens = num_predict;
    if (reasoning === false)
      rest.model_kwargs = { ...objectOr(rest.model_kwargs), reasoning_effort: "none" };
    return rest;
  },
  reasoningOf: (raw) => textField(raw, "reasoning"),
};

const THINK_TAG = /<think>\s*([\s\S]*?)\s*<\/think>/g;

/**
 * MiniMax: `reasoning_split` makes it send reasoning as `reasoning_details` instead of inline
 * `<think>` tags (both are read); it rejects requests whose user messages carry different `name`s,
 * which Fawn's middlewares set, so user names are dropped.
 */
export const MINIMAX_DIALECT: ModelDialect = {
  name: "minimax",
  rewriteRequest(body) {
    body.reasoning_split = true;
    for (const entry of messagesOf(body)) {
      if (isPlainObject(entry) && entry.role === "user") delete entry.name;
    }
  },
  reasoningOf(raw) {
    const details = raw.reasoning_details;
    if (!Array.isArray(details)) return undefined;
    const text = details
      .map((item: unknown) =>
        isPlainObject(item) && typeof item.text === "string" ? item.text : "",
      )
      .join("");
    return text === "" ? undefined : { reasoning_content: text };
  },
  finishMessage(message) {
    if (typeof message.content !== "string" || !message.content.includes("<think>")) return message;
    const inline: string[] = [];
    const content = message.content
      .replace(THINK_TAG, (_all, thought: string) => {
        if (thought.trim() !== "") inline.push(thought.trim());
        return "";
      })
      .trim();
    const before = message.additional_kwargs.reasoning_content;
    const reasoning = [typeof before === "string" ? before.trim() : "", ...inline]
      .filter((part, index, all) => part !== "" && all.indexOf(part) === index)
      .join("\n\n");
    return replaceAIFields(message, {
      content,
      additional_kwargs: {
        ...message.additional_kwargs,
        ...(reasoning ? { reasoning_content: reasoning } : {}),
      },
    });
  },
};

export function messagesOf(body: Record<string, unknown>): unknown[] {
  return Array.isArray(body.messages) ? body.messages : [];
}

function textField(raw: Record<string, unknown>, field: string): ReasoningFields | undefined {
  const value = raw[field];
  return typeof value === "string" ? { reasoning_content: value } : undefined;
}

function renameTemplateThinking(body: Record<string, unknown>): void {
  const kwargs = body.chat_template_kwargs;
  if (!isPlainObject(kwargs) || !("thinking" in kwargs)) return;
  const { thinking, ...rest } = kwargs;
  body.chat_template_kwargs = { enable_thinking: thinking, ...rest };
}

/** vLLM's reasoning may be text, a list of parts, or an object with a text field. */
function reasoningText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(reasoningText).join("");
  if (isPlainObject(value)) {
    for (const key of ["text", "content", "reasoning"]) {
      if (value[key] !== undefined && value[key] !== null) return reasoningText(value[key]);
    }
  }
  return JSON.stringify(value) ?? "";
}

function renameKeys(
  settings: Record<string, unknown>,
  renames: Record<string, string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  for (const [from, to] of Object.entries(renames)) {
    if (!(from in out)) continue;
    if (out[to] === undefined) out[to] = out[from];
    delete out[from];
  }
  return out;
}

function objectOr(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}
