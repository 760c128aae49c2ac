export interface FallbackLimits {
  maxChars: number;
  headChars: number;
  tailChars: number;
}

/**
 * Head + marker + tail, at most `maxChars` long, for when an output cannot be saved to a file
 *. The cut points snap to line boundaries when a newline is near, so the model
 * sees whole lines; if even the marker does not fit, the text is hard-cut to the budget.
 */
export function truncateToolOutput(text: string, toolName: string, limits: FallbackLimits): string {
  if (text.length <= limits.maxChars) return text;
  // The marker's length depends on the omitted count; its upper bound is the whole length.
  const room = limits.maxChars - marker(toolName, text.length).length;
  if (room <= 0) return text.slice(0, limits.maxChars);
  // Snapping only shortens head and tail, so the result stays within the budget.
  const head = snapHeadEnd(text, Math.min(limits.headChars, room));
  const tailChars = Math.min(limits.tailChars, room - Math.min(limits.headChars, room));
  const tailStart = snapTailStart(text, text.length - tailChars);
  const omitted = tailStart - head;
  return `${text.slice(0, head)}${marker(toolName, omitted)}${text.slice(tailStart)}`;
}

function marker(toolName: string, omitted: number): string {
  return `\n\n[... ${omitted} chars omitted from ${toolName} output. Persistent storage unavailable. Consider narrowing the query or using more specific parameters.]\n\n`;
}

/** Ends the head just after a newline in its second half, if there is one. */
function snapHeadEnd(text: string, head: number): number {
  if (head <= 0) return 0;
  const newline = text.lastIndexOf("\n", head - 1);
  return newline >= head / 2 ? newline + 1 : head;
}

/** Starts the tail just after a newline in its first half, if there is one. */
function snapTailStart(text: string, start: number): number {
  if (start >= text.length) return text.length;
  const length = text.length - start;
  const newline = text.indexOf("\n", start);
  return newline !== -1 && newline - start < length / 2 ? newline + 1 : start;
}
