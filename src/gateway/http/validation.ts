import type { Context } from "hono";
import type { z } from "zod";
import { BadRequestError, ValidationError } from "../../core/errors.js";
import { assertValidId } from "../../core/ids.js";
import { assertJsonWithinLimits } from "./json-limits.js";

/** A zod issue as it travels in a 422 body: where, what, which check; never the offending input. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** Parse `value` with `schema`, or throw a 422 naming every bad field. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: "body" | "query" | "path" | "header",
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.slice(0, 20).map((issue) => ({
    loc: [where, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
    msg: issue.message.slice(0, 300),
    type: issue.code,
  }));
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.loc.join(".")}: ${issue.msg}`)
    .join("; ");
  throw new ValidationError(`Invalid request ${where}: ${summary}`, { details: { issues } });
}

/**
 * The JSON body. An absent body reads as `{}` when `optional`; a body that is not JSON is a 400;
 * one over the depth/key/value limits or with a prototype key is a 422 (`json-limits.ts`).
 * (The body limit middleware bounds the size before this reads it.)
 */
export async function readJsonBody(
  c: Context,
  options: { optional?: boolean } = {},
): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") {
    if (options.optional) return {};
    throw new BadRequestError("Request body is empty; send a JSON object.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadRequestError("Request body is not valid JSON.");
  }
  assertJsonWithinLimits(parsed, "body");
  return parsed;
}

/** JSON carried in a query value (e.g. `stream_mode=["values"]`), under the same limits; null if not JSON. */
export function parseJsonQueryValue(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  assertJsonWithinLimits(parsed, "query");
  return parsed;
}

/** A thread or run id from the path (`[A-Za-z0-9_-]{1,64}` or a UUID), else 422. */
export function pathId(c: Context, name: string, kind: "thread" | "run" | "assistant"): string {
  return assertValidId(kind, c.req.param(name));
}
