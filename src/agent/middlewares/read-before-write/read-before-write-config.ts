import type { z } from "zod";
import { readBeforeWriteConfigSchema } from "../../../core/config/middleware-sections.js";
import { parseConfigSection } from "../config-section.js";

export type ReadBeforeWriteConfig = z.output<typeof readBeforeWriteConfigSchema>;

export function parseReadBeforeWriteConfig(raw: unknown): ReadBeforeWriteConfig {
  return parseConfigSection(readBeforeWriteConfigSchema, raw, "read_before_write");
}
