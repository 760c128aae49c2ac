/**
 * How sandbox results read to the model: helpers for the agent's sandbox
 * tools, so every tool words output, limits and failures the same way.
 */
import { isFawnError } from "../core/errors.js";
import type { CommandResult } from "./sandbox.js";

export const DEFAULT_BASH_OUTPUT_MAX_CHARS = 20_000;
const MAX_ERROR_CHARS = 2_000;

/**
 * Keeps the head and tail of `text` with a marker in between; the result is never longer than
 * `maxChars` (0 or less disables truncation).
 */
export function middleTruncate(text: string, maxChars: number): string {
  if (maxChars <= 0 || text.length <= maxChars) return text;
  const marker = (skipped: number): string =>
    `\n... [middle truncated: ${skipped} chars skipped] ...\n`;
  // The marker's length depends on the count it shows; size it for the worst case first.
  const room = maxChars - marker(text.length).length;
  if (room <= 0) return text.slice(0, maxChars);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  const skipped = text.length - head - tail;
  return `${text.slice(0, head)}${marker(skipped)}${tail > 0 ? text.slice(-tail) : ""}`;
}

/**
 * The `bash` tool's text: stdout, then stderr after `Std Error:`, the exit code when it is not 0,
 * notices for a timeout or dropped output, `(no output)` when there is nothing, and the whole
 * middle-truncated to `maxChars`.
 */
export function formatCommandOutput(
  result: CommandResult,
  options: { maxChars?: number; timeoutMs?: number } = {},
): string {
  let text = result.stdout;
  if (result.stderr !== "") text += `${text === "" ? "" : "\n"}Std Error:\n${result.stderr}`;
  if (result.exitCode !== 0) text += `${text === "" ? "" : "\n"}Exit Code: ${result.exitCode}`;
  if (result.timedOut) {
    const after = options.timeoutMs ? ` after ${Math.round(options.timeoutMs / 1000)} s` : "";
    text +=
      `\n[Command timed out${after}; it and every process it started were killed. ` +
      "Split the work into shorter commands.]";
  }
  if (result.truncated) text += "\n[Some output was dropped: it exceeded the capture limit.]";
  if (text === "") return "(no output)";
  return middleTruncate(text, options.maxChars ?? DEFAULT_BASH_OUTPUT_MAX_CHARS);
}

/**
 * A failed sandbox call as tool text: known (typed) errors show their message; anything else is
 * `Unexpected error <doing what>: <Type>: <message>` with host paths masked. Bounded in length.
 */
export function describeSandboxFailure(
  error: unknown,
  doingWhat: string,
  maskHostPaths: (text: string) => string = (text) => text,
): string {
  const text = isFawnError(error)
    ? `Error: ${maskHostPaths(error.message)}`
    : error instanceof Error
      ? `Error: Unexpected error ${doingWhat}: ${error.name}: ${maskHostPaths(error.message)}`
      : `Error: Unexpected error ${doingWhat}: ${maskHostPaths(String(error))}`;
  return middleTruncate(text, MAX_ERROR_CHARS);
}
