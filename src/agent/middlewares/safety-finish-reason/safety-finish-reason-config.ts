import type { z } from "zod";
import { safetyFinishReasonConfigSchema } from "../../../core/config/middleware-sections.js";
import { parseConfigSection } from "../config-section.js";

export type SafetyFinishReasonConfig = z.output<typeof safetyFinishReasonConfigSchema>;

export function parseSafetyFinishReasonConfig(raw: unknown): SafetyFinishReasonConfig {
  return parseConfigSection(safetyFinishReasonConfigSchema, raw, "safety_finish_reason");
}
