import type { ChatMessage } from "./message-groups.js";

/**
 * What the chat keeps when the user presses Stop. The SDK replaces the streamed values with the
 * thread's stored state, which does not hold the model call that was cut off: the partial answer
 * (and any tool call still running) would vanish. This appends the messages shown since the
 * last one the stored state knows, except user messages (the stored state has the input).
 */
export function keepStoppedMessages(
  stored: ReadonlyArray<ChatMessage>,
  shown: ReadonlyArray<ChatMessage>,
): ChatMessage[] {
  const storedIds = new Set(stored.flatMap((message) => (message.id ? [message.id] : [])));
  // Nothing stored yet (stopped before the first checkpoint): what was shown is all there is.
  if (storedIds.size === 0) return [...shown];
  let from = 0;
  shown.forEach((message, index) => {
    if (message.id && storedIds.has(message.id)) from = index + 1;
  });
  const cutOff = shown
    .slice(from)
    .filter((message) => message.type !== "human" && !(message.id && storedIds.has(message.id)));
  return cutOff.length === 0 ? [...stored] : [...stored, ...cutOff];
}
