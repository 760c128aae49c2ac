import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Logger } from "../../core/logger.js";

/**
 * The MCP tools a run may add after the built-in and configured ones:
 * a name already taken — by an earlier tool or an earlier MCP tool — keeps its first owner and
 * the later tool is dropped with a warning (once per name per process, not once per run).
 */
export function acceptMcpTools(
  taken: Iterable<string>,
  mcpTools: readonly StructuredToolInterface[],
  warned: Set<string>,
  logger: Logger,
): StructuredToolInterface[] {
  const names = new Set(taken);
  const accepted: StructuredToolInterface[] = [];
  for (const tool of mcpTools) {
    if (names.has(tool.name)) {
      if (!warned.has(tool.name)) {
        warned.add(tool.name);
        logger.warn(
          { tool: tool.name },
          `MCP tool "${tool.name}" is skipped: an earlier tool has this name (set tool_name_prefix on its server to keep both)`,
        );
      }
      continue;
    }
    names.add(tool.name);
    accepted.push(tool);
  }
  return accepted;
}
