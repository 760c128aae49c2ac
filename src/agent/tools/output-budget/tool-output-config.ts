import { z } from "zod";
import { parseConfigSection } from "../../middlewares/config-section.js";

const count = z.number().int().min(0);

/** A folder name directly under outputs: not empty, not `.`/`..`, no separators. */
const storageSubdir = z
  .string()
  .refine((value) => value !== "" && value !== "." && value !== ".." && !/[/\\\0]/.test(value), {
    message: "must be a single folder name (no '/', '\\', '.' or '..')",
  });

/** `tool_output:` in config.yaml. */
export const toolOutputConfigSchema = z.object({
  enabled: z.boolean().default(true),
  /** Outputs longer than this are saved to a file; 0 disables externalization. */
  externalize_min_chars: count.default(12_000),
  preview_head_chars: count.default(2000),
  preview_tail_chars: count.default(1000),
  /** Without a file, outputs longer than this are cut to head + tail; 0 disables. */
  fallback_max_chars: count.default(30_000),
  fallback_head_chars: count.default(8000),
  fallback_tail_chars: count.default(3000),
  storage_subdir: storageSubdir.default(".tool-results"),
  /** Never budgeted: reading a saved output back must not save it again. */
  exempt_tools: z.array(z.string()).default(["read_file", "read_file_tool"]),
  /** Per-tool externalization threshold; 0 disables externalization for that tool. */
  tool_overrides: z.record(z.string(), count).default({}),
});

export type ToolOutputConfig = z.output<typeof toolOutputConfigSchema>;

export function parseToolOutputConfig(raw: unknown): ToolOutputConfig {
  return parseConfigSection(toolOutputConfigSchema, raw, "tool_output");
}
