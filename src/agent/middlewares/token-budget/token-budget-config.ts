import type { z } from "zod";
import { tokenBudgetConfigSchema } from "../../../core/config/middleware-sections.js";
import { parseConfigSection } from "../config-section.js";

export type TokenBudgetConfig = z.output<typeof tokenBudgetConfigSchema>;

export function parseTokenBudgetConfig(raw: unknown): TokenBudgetConfig {
  return parseConfigSection(tokenBudgetConfigSchema, raw, "token_budget");
}
