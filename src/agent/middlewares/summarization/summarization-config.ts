import { z } from "zod";
import { parseConfigSection } from "../config-section.js";

const trigger = z.object({
  type: z.enum(["tokens", "messages", "fraction"]),
  value: z.number().positive(),
});

/** `summarization:` in config.yaml. Off unless enabled. */
export const summarizationConfigSchema = z.object({
  enabled: z.boolean().default(false),
  /** A configured model for summaries; null = the run's own model. */
  model_name: z.string().min(1).nullable().default(null),
  /** When to summarize; several triggers mean "any of them". */
  trigger: z
    .union([trigger, z.array(trigger)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .default([{ type: "tokens", value: 32_000 }]),
  /** What stays verbatim after a summary. */
  keep: z
    .object({ type: z.enum(["messages", "tokens"]), value: z.number().int().min(1) })
    .default({ type: "messages", value: 20 }),
  /** At most this much of the old conversation is sent to be summarized (its latest part). */
  trim_tokens_to_summarize: z.number().int().min(100).default(4000),
  summary_prompt: z.string().min(1).nullable().default(null),
  /** Accepted for reference configs; skill reads are not tracked yet. */
  skill_file_read_tool_names: z.array(z.string()).default(["read_file", "read", "view", "cat"]),
});

export type SummarizationConfig = z.output<typeof summarizationConfigSchema>;

export function parseSummarizationConfig(raw: unknown): SummarizationConfig {
  return parseConfigSection(summarizationConfigSchema, raw, "summarization");
}
