import type { Script, ScriptRule, ScriptTurn } from "./script-schema.js";

/**
 * The provider-neutral heart of the scripted model, shared by the LangChain model and the mock
 * OpenAI server: from a conversation, decide the reply. Everything is derived from the messages,
 * never from mutable state, so concurrent runs (and replays) answer independently.
 */

export type ScriptRole = "human" | "ai" | "tool" | "system";

export interface ScriptMessage {
  role: ScriptRole;
  text: string;
  name?: string | undefined;
  id?: string | undefined;
}

export interface ScriptedToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface ScriptedReply {
  content: string;
  reasoning: string | undefined;
  toolCalls: ScriptedToolCall[];
  streamDelayMs: number;
  /** Tool-call arguments stream in pieces rather than in the closing chunk. */
  streamToolArgs: boolean;
  hang: boolean;
  /** Index of the answering rule; -1 when no rule matched or a middleware asked. */
  ruleIndex: number;
  /** Which model call after the latest user message this is (0-based). */
  turnIndex: number;
}

/**
 * Human messages that middlewares inject (reminders, summaries, image context) are not the user
 * speaking: they must neither restart the turn count nor be matched against rules.
 */
const CONTROL_MESSAGE_NAMES = new Set([
  "summary",
  "loop_warning",
  "todo_reminder",
  "durable_context",
  "date_reminder",
  "plugin_context",
  "budget_warning",
]);
const CONTROL_ID_PREFIXES = ["view-image-context:"];

export function isControlMessage(message: ScriptMessage): boolean {
  if (message.role !== "human") return false;
  if (message.name !== undefined && CONTROL_MESSAGE_NAMES.has(message.name)) return true;
  return CONTROL_ID_PREFIXES.some((prefix) => message.id?.startsWith(prefix) ?? false);
}

export interface ConversationPosition {
  /** Index of the latest genuine user message; -1 when there is none. */
  humanIndex: number;
  latestHumanText: string;
  /** AI messages after that user message = model calls already answered in this exchange. */
  turnIndex: number;
}

export function conversationPosition(messages: readonly ScriptMessage[]): ConversationPosition {
  let humanIndex = -1;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role === "human" && !isControlMessage(message)) {
      humanIndex = i;
      break;
    }
  }
  const turnIndex = messages.slice(humanIndex + 1).filter((m) => m.role === "ai").length;
  const latestHumanText = humanIndex >= 0 ? (messages[humanIndex]?.text ?? "") : "";
  return { humanIndex, latestHumanText, turnIndex };
}

/**
 * The reply the script gives for the lead agent's next model call. `boundTools` names the tools
 * bound to the call (rules with `when_tools` need them all).
 */
export function answerFromScript(
  script: Script,
  messages: readonly ScriptMessage[],
  boundTools: ReadonlySet<string> = new Set(),
): ScriptedReply {
  const position = conversationPosition(messages);
  const ruleIndex = script.rules.findIndex(
    (rule) =>
      (rule.match === null || rule.match.test(position.latestHumanText)) &&
      rule.whenTools.every((tool) => boundTools.has(tool)),
  );
  const rule = script.rules[ruleIndex];
  if (!rule) return noRuleReply(script, position);
  return replyFromRule(rule, ruleIndex, position);
}

function replyFromRule(
  rule: ScriptRule,
  ruleIndex: number,
  position: ConversationPosition,
): ScriptedReply {
  const turn: ScriptTurn | undefined =
    rule.turns[Math.min(position.turnIndex, rule.turns.length - 1)];
  return {
    content: turn?.content ?? "",
    reasoning: turn?.reasoning,
    toolCalls: (turn?.tool_calls ?? []).map((call, i) => ({
      // Position-derived ids are unique within a thread and identical on every replay.
      id: call.id ?? `call_${position.humanIndex + 1}_${position.turnIndex}_${i}`,
      name: call.name,
      args: call.args,
    })),
    streamDelayMs: rule.streamDelayMs,
    streamToolArgs: rule.streamToolArgs,
    hang: rule.hang,
    ruleIndex,
    turnIndex: position.turnIndex,
  };
}

function noRuleReply(script: Script, position: ConversationPosition): ScriptedReply {
  return {
    content: `[scripted model] No rule in ${script.source} matches: "${clip(position.latestHumanText, 80)}"`,
    reasoning: undefined,
    toolCalls: [],
    streamDelayMs: 0,
    streamToolArgs: false,
    hang: false,
    ruleIndex: -1,
    turnIndex: position.turnIndex,
  };
}

/** Callers whose model calls are not turns of the conversation. */
export function isMiddlewareCaller(caller: string | undefined): caller is string {
  return caller?.startsWith("middleware:") ?? false;
}

/**
 * A short deterministic answer for a middleware's own model call (title, summary, memory): it
 * consumes no turn, so a script reads like the conversation it drives.
 */
export function middlewareReply(
  script: Script,
  caller: string,
  messages: readonly ScriptMessage[],
): ScriptedReply {
  const position = conversationPosition(messages);
  const kind = caller.slice("middleware:".length);
  const configured = script.middlewareReplies[caller] ?? script.middlewareReplies[kind];
  return {
    content: configured ?? defaultMiddlewareAnswer(kind, position.latestHumanText),
    reasoning: undefined,
    toolCalls: [],
    streamDelayMs: 0,
    streamToolArgs: false,
    hang: false,
    ruleIndex: -1,
    turnIndex: position.turnIndex,
  };
}

function defaultMiddlewareAnswer(kind: string, latestHumanText: string): string {
  if (kind === "title") {
    const words = latestHumanText.trim().split(/\s+/).filter(Boolean).slice(0, 6).join(" ");
    return words || "New Conversation";
  }
  if (kind === "summarization" || kind === "summary") return "Summary of the earlier conversation.";
  if (kind === "suggestions") return JSON.stringify(DEFAULT_SUGGESTIONS);
  if (kind === "input_polish") return tidyDraft(latestHumanText);
  return "OK";
}

/** Follow-up questions the scripted models offer (the gateway keeps as many as were asked). */
const DEFAULT_SUGGESTIONS = [
  "Can you explain that in more detail?",
  "What should I do next?",
  "Can you give me an example?",
  "What are the trade-offs?",
  "Can you summarize the key points?",
];

/**
 * The scripted "polish": the draft between `<draft>` and `</draft>` with its spacing evened out,
 * a capital first letter and closing punctuation — visibly changed, always deterministic.
 */
function tidyDraft(request: string): string {
  const match = /<draft>\s*([\s\S]*?)\s*<\/draft>/.exec(request);
  const draft = (match?.[1] ?? request).replace(/[ \t]+/g, " ").trim();
  if (draft === "") return draft;
  const capital = draft.charAt(0).toUpperCase() + draft.slice(1);
  return /[.!?。！？]$/.test(capital) ? capital : `${capital}.`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Rough token count (4 characters a token), enough for deterministic `usage` figures. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function replyText(reply: ScriptedReply): string {
  const args = reply.toolCalls.map((call) => `${call.name}${JSON.stringify(call.args)}`).join("");
  return `${reply.reasoning ?? ""}${reply.content}${args}`;
}

/** Splits text into word-sized pieces (whitespace kept) so it streams in several chunks. */
export function splitIntoChunks(text: string): string[] {
  if (text === "") return [];
  return text.match(/\S+\s*|\s+/g) ?? [text];
}
