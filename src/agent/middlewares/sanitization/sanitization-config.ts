import type { z } from "zod";
import { sanitizationConfigSchema } from "../../../core/config/middleware-sections.js";
import { parseConfigSection } from "../config-section.js";

export type SanitizationConfig = z.output<typeof sanitizationConfigSchema>;

export function parseSanitizationConfig(raw: unknown): SanitizationConfig {
  return parseConfigSection(sanitizationConfigSchema, raw, "sanitization");
}
