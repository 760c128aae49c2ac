import { z } from "zod";
import { parseConfigSection } from "../config-section.js";

const positive = z.number().int().min(1);

/** `loop_detection:` in config.yaml. */
export const loopDetectionConfigSchema = z.object({
  enabled: z.boolean().default(true),
  /** The same set of tool calls this many times → a warning to the model. */
  warn_threshold: positive.default(3),
  /** … this many times → the calls are stripped and the turn ends (`loop_capped`). */
  hard_limit: positive.default(5),
  /** How many recent tool-calling answers are compared. */
  window_size: positive.default(20),
  /** Accepted for reference configs; history is read from the thread, not kept per thread. */
  max_tracked_threads: positive.default(100),
  tool_freq_warn: positive.default(30),
  tool_freq_hard_limit: positive.default(50),
  tool_freq_overrides: z
    .record(z.string(), z.object({ warn: positive.optional(), hard_limit: positive.optional() }))
    .default({}),
});

export type LoopDetectionConfig = z.output<typeof loopDetectionConfigSchema>;

export function parseLoopDetectionConfig(raw: unknown): LoopDetectionConfig {
  return parseConfigSection(loopDetectionConfigSchema, raw, "loop_detection");
}
