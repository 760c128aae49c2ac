import { z } from "zod";
import type { DirEntry, SandboxProvider } from "../../../sandbox/index.js";
import { defineSandboxTool } from "./define-sandbox-tool.js";
import type { SandboxToolSettings } from "./sandbox-tool-settings.js";
import { headTruncate } from "./text-limits.js";

const lsSchema = z.object({
  description: z
    .string()
    .describe("Why you are listing this folder, in a few words. Provide first."),
  path: z.string().describe("Absolute virtual path of the folder, e.g. /mnt/user-data/workspace."),
});

/**
 * `ls`: the folder's tree two levels deep — children, then grandchildren — one virtual path a
 * line, folders ending in `/`; noise (`.git`, `node_modules`, …) and symlinks leading out are left
 * out by the sandbox. Head-truncated to `sandbox.ls_output_max_chars`.
 */
export function createLsTool(provider: SandboxProvider, settings: SandboxToolSettings) {
  return defineSandboxTool(provider, {
    name: "ls",
    description: "List a folder of the thread's sandbox, two levels deep. Folders end with '/'.",
    schema: lsSchema,
    doingWhat: "listing directory",
    async run(sandbox, input) {
      const entries = await sandbox.listDir(input.path, { maxDepth: 2 });
      if (entries.length === 0) return "(empty)";
      const text = orderedByDepth(entries).map(formatEntry).join("\n");
      return headTruncate(
        text,
        settings.lsOutputMaxChars,
        (total) =>
          `\n... [listing truncated: ${total} chars in all; list a subfolder or use glob to see the rest]`,
      );
    },
  });
}

/** Children first, then grandchildren; each level in path order. */
function orderedByDepth(entries: readonly DirEntry[]): DirEntry[] {
  return [...entries].sort((a, b) =>
    a.depth !== b.depth ? a.depth - b.depth : a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
}

function formatEntry(entry: DirEntry): string {
  return entry.type === "directory" ? `${entry.path}/` : entry.path;
}
