import type { z } from "zod";
import { ConfigError } from "../../core/errors.js";

/**
 * Parses one config.yaml section that the core schema keeps opaque (`tool_output`, `title`, …):
 * defaults fill what is missing, and a wrong value fails at startup naming its key.
 */
export function parseConfigSection<Schema extends z.ZodType>(
  schema: Schema,
  raw: unknown,
  section: string,
): z.output<Schema> {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${[section, ...issue.path.map(String)].join(".")}: ${issue.message}`)
    .join("; ");
  throw new ConfigError(`Invalid config.yaml section "${section}": ${problems}`);
}
