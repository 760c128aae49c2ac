import { z } from "zod";
import {
  effectiveMaxResults,
  GREP_RESULT_LIMITS,
  type SandboxProvider,
} from "../../../sandbox/index.js";
import { defineSandboxTool } from "./define-sandbox-tool.js";
import type { SandboxToolSettings } from "./sandbox-tool-settings.js";

const grepSchema = z.object({
  description: z.string().describe("Why you are searching, in a few words. Provide first."),
  pattern: z.string().describe("Regular expression to look for (or plain text with literal=true)."),
  path: z.string().describe("Absolute virtual file or folder to search."),
  glob: z
    .string()
    .nullish()
    .describe("Only search files whose path below `path` matches this glob, e.g. **/*.py."),
  literal: z.boolean().default(false).describe("Treat the pattern as plain text."),
  case_sensitive: z.boolean().default(false).describe("Match letter case exactly."),
  max_results: z
    .number()
    .int()
    .default(GREP_RESULT_LIMITS.defaultMax)
    .describe(`At most this many matching lines (up to ${GREP_RESULT_LIMITS.cap}).`),
});

/**
 * `grep`: matching lines as `path:line: text`; the limit is the smaller of what the model asks
 * and what `tools[grep].max_results` allows. A bad regular expression is an
 * `Invalid regex pattern` error.
 */
export function createGrepTool(provider: SandboxProvider, settings: SandboxToolSettings) {
  return defineSandboxTool(provider, {
    name: "grep",
    description: "Search the contents of files in the thread's sandbox for a regular expression.",
    schema: grepSchema,
    doingWhat: "searching file contents",
    async run(sandbox, input) {
      const maxResults = effectiveMaxResults(
        input.max_results,
        settings.grepMaxResults,
        GREP_RESULT_LIMITS,
      );
      const { matches, truncated } = await sandbox.grep(input.path, input.pattern, {
        ...(input.glob ? { glob: input.glob } : {}),
        literal: input.literal,
        caseSensitive: input.case_sensitive,
        maxResults,
      });
      if (matches.length === 0) return `No matches found under ${input.path}`;
      const lines = [
        `Found ${matches.length} matches under ${input.path}${truncated ? ` (showing first ${matches.length})` : ""}`,
        ...matches.map((match) => `${match.path}:${match.lineNumber}: ${match.line}`),
      ];
      if (truncated) {
        lines.push("Results truncated: narrow the path, the pattern or the glob to see the rest.");
      }
      return lines.join("\n");
    },
  });
}
