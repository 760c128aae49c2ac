import { z } from "zod";
import {
  effectiveMaxResults,
  GLOB_RESULT_LIMITS,
  type SandboxProvider,
} from "../../../sandbox/index.js";
import { defineSandboxTool } from "./define-sandbox-tool.js";
import type { SandboxToolSettings } from "./sandbox-tool-settings.js";

const globSchema = z.object({
  description: z.string().describe("Why you are searching, in a few words. Provide first."),
  pattern: z.string().describe("Glob pattern relative to path, e.g. **/*.md or src/*.ts."),
  path: z.string().describe("Absolute virtual folder to search, e.g. /mnt/user-data/workspace."),
  include_dirs: z.boolean().default(false).describe("Also list matching folders."),
  max_results: z
    .number()
    .int()
    .default(GLOB_RESULT_LIMITS.defaultMax)
    .describe(`At most this many paths (up to ${GLOB_RESULT_LIMITS.cap}).`),
});

/**
 * `glob`: paths under a folder matching a pattern, numbered; the limit is the smaller of what the
 * model asks and what `tools[glob].max_results` allows.
 */
export function createGlobTool(provider: SandboxProvider, settings: SandboxToolSettings) {
  return defineSandboxTool(provider, {
    name: "glob",
    description:
      "Find files (and optionally folders) in the thread's sandbox whose path matches a glob pattern.",
    schema: globSchema,
    doingWhat: "searching files",
    async run(sandbox, input) {
      const maxResults = effectiveMaxResults(
        input.max_results,
        settings.globMaxResults,
        GLOB_RESULT_LIMITS,
      );
      const { paths, truncated } = await sandbox.glob(input.path, input.pattern, {
        includeDirs: input.include_dirs,
        maxResults,
      });
      if (paths.length === 0) return `No files matched under ${input.path}`;
      const lines = [
        `Found ${paths.length} paths under ${input.path}${truncated ? ` (showing first ${paths.length})` : ""}`,
        ...paths.map((path, index) => `${index + 1}. ${path}`),
      ];
      if (truncated) {
        lines.push("Results truncated: narrow the path or the pattern to see the rest.");
      }
      return lines.join("\n");
    },
  });
}
