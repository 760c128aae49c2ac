import { z } from "zod";
import { parseConfigSection } from "../config-section.js";

/** `title:` in config.yaml. */
export const titleConfigSchema = z.object({
  enabled: z.boolean().default(true),
  max_words: z.number().int().min(1).default(6),
  max_chars: z.number().int().min(8).default(60),
  /** A configured model for titles; null = the run's own model. */
  model_name: z.string().min(1).nullable().default(null),
  /** System prompt; `{max_words}` and `{assistant_reply}` are filled in. */
  prompt_template: z.string().min(1).nullable().default(null),
});

export type TitleConfig = z.output<typeof titleConfigSchema>;

export function parseTitleConfig(raw: unknown): TitleConfig {
  return parseConfigSection(titleConfigSchema, raw, "title");
}
