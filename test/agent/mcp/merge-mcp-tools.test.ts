import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { acceptMcpTools } from "../../../src/agent/mcp/merge-mcp-tools.js";
import type { Logger } from "../../../src/core/logger.js";

function named(name: string) {
  return tool(async () => name, { name, description: name, schema: z.object({}) });
}

function recordingLogger(lines: string[]): Logger {
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (_context, message) => lines.push(message),
    error: () => undefined,
    child: () => logger,
  };
  return logger;
}

describe("acceptMcpTools", () => {
  it("keeps the first owner of a name and warns once per name", () => {
    const lines: string[] = [];
    const warned = new Set<string>();
    const mcp = [named("read_file"), named("search"), named("search"), named("task")];
    const accepted = acceptMcpTools(["read_file", "task"], mcp, warned, recordingLogger(lines));
    expect(accepted.map((t) => t.name)).toEqual(["search"]);
    expect(accepted[0]).toBe(mcp[1]);
    expect(lines).toHaveLength(3);
    // The next run: the same shadowing is not reported again.
    acceptMcpTools(["read_file", "task"], mcp, warned, recordingLogger(lines));
    expect(lines).toHaveLength(3);
  });
});
