import { type BaseMessage, HumanMessage, type MessageContent } from "@langchain/core/messages";
import { contentText, isUserMessage } from "../conversation.js";
import type { AgentMiddleware } from "../types.js";
import { ORIGINAL_USER_CONTENT_KEY } from "../uploads/uploads-middleware.js";
import { frameUserText, neutralizeUntrustedText } from "./untrusted-text.js";

/**
 * Prompt-injection guard for the user's latest message: blocked tags are escaped (not rejected,
 * so "how do I use the <think> tag?" still reads as meant) and the text is framed by plain-text
 * user-input markers. Request-only: the stored message stays as the user wrote it. When the
 * uploads middleware prepended its `<current_uploads>` block, only the user's own text is touched.
 */
export function createInputSanitizationMiddleware(): AgentMiddleware {
  return {
    name: "InputSanitizationMiddleware",
    tag: "input_sanitization",
    async wrapModelCall(request, next, runtime) {
      const index = request.messages.findLastIndex((message) => isUserMessage(message));
      const message = request.messages[index];
      if (!message || !HumanMessage.isInstance(message)) return next(request);
      const sanitized = sanitizeUserMessage(message);
      if (sanitized === message) return next(request);
      runtime.record("wrapModelCall", "input_sanitized", { message_id: message.id ?? null });
      const messages: BaseMessage[] = [...request.messages];
      messages[index] = sanitized;
      return next({ ...request, messages });
    },
  };
}

/** The message as the model should read it, or the same object when nothing changes. */
export function sanitizeUserMessage(message: HumanMessage): HumanMessage {
  const original: unknown = message.additional_kwargs[ORIGINAL_USER_CONTENT_KEY];
  const content =
    typeof original === "string"
      ? sanitizeUserSuffix(message.content, original)
      : sanitizeAll(message.content);
  if (content === message.content) return message;
  return new HumanMessage({
    content,
    id: message.id,
    name: message.name,
    additional_kwargs: {
      ...message.additional_kwargs,
      // Kept so anything that needs the user's words (slash skills) finds them unframed.
      [ORIGINAL_USER_CONTENT_KEY]:
        typeof original === "string" ? original : contentText(message.content),
    },
  });
}

function sanitizeAll(content: MessageContent): MessageContent {
  if (typeof content === "string") {
    const framed = frameUserText(content);
    return framed === content ? content : framed;
  }
  const text = contentText(content);
  if (text.trim() === "") return content;
  const framed = frameUserText(text);
  if (framed === text) return content;
  // Text parts become one framed part where the first one was; images and files stay in place.
  const first = content.findIndex(isTextPart);
  const rest = content.filter((part) => !isTextPart(part));
  return [...rest.slice(0, first), { type: "text", text: framed }, ...rest.slice(first)];
}

/** Uploads turns: the server's block stays trusted; only the user's text after it is framed. */
function sanitizeUserSuffix(content: MessageContent, original: string): MessageContent {
  if (original === "") return content;
  const framed = frameUserText(original);
  if (framed === original) return content;
  if (typeof content === "string") {
    const at = content.lastIndexOf(original);
    return at >= 0 ? content.slice(0, at) + framed : frameUserText(content);
  }
  return content.map((part, index) => {
    if (index === 0 || !isTextPart(part)) return part;
    return { ...part, text: neutralizeUntrustedText(part.text) };
  });
}

function isTextPart(part: unknown): part is { type: "text"; text: string } {
  return (
    typeof part === "object" &&
    part !== null &&
    "type" in part &&
    part.type === "text" &&
    "text" in part &&
    typeof part.text === "string"
  );
}
