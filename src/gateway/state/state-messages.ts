import type { Json } from "../../core/json/serialize.js";
import type { ApiThreadState } from "./thread-state.js";

/** A message of a thread state as the API serializes it (`{type, id, content, …}`). */
export type StateMessage = Record<string, Json>;

/** Where the uploads middleware keeps the user's own text once it prepends the files block. */
const ORIGINAL_USER_CONTENT_KEY = "original_user_content";

function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stateMessages(state: Pick<ApiThreadState, "values">): StateMessage[] {
  const messages = state.values.messages;
  return Array.isArray(messages) ? messages.filter(isRecord) : [];
}

export function messageId(message: StateMessage | undefined): string | null {
  const id = message?.id;
  return typeof id === "string" && id !== "" ? id : null;
}

export function messageType(message: StateMessage): string | null {
  const type = message.type ?? message.role;
  if (type === "assistant") return "ai";
  if (type === "user") return "human";
  return typeof type === "string" ? type : null;
}

export function additionalKwargs(message: StateMessage): Record<string, Json> {
  const kwargs = message.additional_kwargs;
  return isRecord(kwargs) ? { ...kwargs } : {};
}

/** Hidden from the chat: `hide_from_ui`, a summary, a removal marker (as the reference hides). */
function isHidden(message: StateMessage): boolean {
  return (
    messageType(message) === "remove" ||
    message.name === "summary" ||
    additionalKwargs(message).hide_from_ui === true
  );
}

export function isVisibleHuman(message: StateMessage): boolean {
  return messageType(message) === "human" && !isHidden(message);
}

export function isVisibleAi(message: StateMessage): boolean {
  return messageType(message) === "ai" && !isHidden(message);
}

export function toolCallsOf(message: StateMessage): Json[] {
  const calls = message.tool_calls;
  return Array.isArray(calls) ? calls : [];
}

/** The text of a content value: a string, or the text parts of a list. */
export function contentText(content: Json | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      return isRecord(part) && part.type === "text" && typeof part.text === "string"
        ? part.text
        : "";
    })
    .join("");
}

/** What the user typed: the original text when a middleware prepended context to it. */
export function userText(message: StateMessage): string {
  const kwargs = additionalKwargs(message);
  const original = kwargs[ORIGINAL_USER_CONTENT_KEY];
  return contentText(original !== undefined ? original : message.content);
}

/** Whether an AI message is a finished text answer (no tool calls pending). */
export function isTerminalAiText(message: StateMessage): boolean {
  return (
    isVisibleAi(message) &&
    contentText(message.content).trim() !== "" &&
    toolCallsOf(message).length === 0
  );
}

/** The human message as a run input again: its text, kwargs and id, minus server additions. */
export function replayableHuman(message: StateMessage): StateMessage {
  const kwargs = additionalKwargs(message);
  delete kwargs[ORIGINAL_USER_CONTENT_KEY];
  delete kwargs.hide_from_ui;
  const out: StateMessage = {
    type: "human",
    content: [{ type: "text", text: userText(message) }],
    additional_kwargs: kwargs,
  };
  const id = messageId(message);
  if (id) out.id = id;
  if (typeof message.name === "string" && message.name !== "") out.name = message.name;
  return out;
}
