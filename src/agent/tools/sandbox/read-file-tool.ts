import { z } from "zod";
import type { SandboxProvider } from "../../../sandbox/index.js";
import { defineSandboxTool } from "./define-sandbox-tool.js";
import type { SandboxToolSettings } from "./sandbox-tool-settings.js";
import { headTruncate } from "./text-limits.js";

const lineNumber = z.number().int().nullish();

const readFileSchema = z.object({
  description: z.string().describe("Why you are reading this file, in a few words. Provide first."),
  path: z
    .string()
    .describe("Absolute virtual path of the file, e.g. /mnt/user-data/uploads/data.csv."),
  start_line: lineNumber.describe(
    "First line to read (1-based, inclusive). Omit to start at the top.",
  ),
  end_line: lineNumber.describe("Last line to read (1-based, inclusive). Omit to read to the end."),
});

/**
 * `read_file`: a UTF-8 text file, whole or a 1-based inclusive line range, head-truncated to
 * `sandbox.read_file_output_max_chars` with a note on how to read the rest. A file that is not
 * text gets an error pointing at bash or view_image.
 */
export function createReadFileTool(provider: SandboxProvider, settings: SandboxToolSettings) {
  return defineSandboxTool(provider, {
    name: "read_file",
    description:
      "Read a text file from the thread's sandbox, optionally only lines start_line..end_line (1-based, inclusive).",
    schema: readFileSchema,
    doingWhat: "reading file",
    async run(sandbox, input) {
      const invalid = invalidRange(input.start_line, input.end_line);
      if (invalid) return `Error: Invalid line range ${invalid}`;
      const text = await sandbox.readTextFile(input.path);
      const selected = selectLines(text, input.start_line ?? null, input.end_line ?? null);
      if (selected === null) return "Error: Invalid line range (start_line exceeds file length)";
      if (selected === "") return "(empty)";
      return headTruncate(
        selected,
        settings.readFileOutputMaxChars,
        (total) =>
          `\n... [output truncated: ${total} chars in all. Use start_line and end_line to read the rest of ${input.path} in parts.]`,
      );
    },
  });
}

/** The reference's validation texts, checked before the file is read. */
function invalidRange(
  start: number | null | undefined,
  end: number | null | undefined,
): string | null {
  if (start != null && start < 1) return "(start_line must be >= 1)";
  if (end != null && end < 1) return "(end_line must be >= 1)";
  if (start != null && end != null && start > end) {
    return "(start_line > end_line — no lines in range)";
  }
  return null;
}

/** Lines start..end of `text` (1-based, inclusive); null when `start` is past the last line. */
function selectLines(text: string, start: number | null, end: number | null): string | null {
  if (start === null && end === null) return text;
  const lines = text.split("\n");
  // A final newline ends the last line; it does not start another one.
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const first = start ?? 1;
  if (first > lines.length) return null;
  return lines.slice(first - 1, end ?? lines.length).join("\n");
}
