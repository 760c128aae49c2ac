import { z } from "zod";

/** Query-string scalars: every value arrives as a string. */

/** `1/0`, `true/false`, `yes/no` (case-insensitive). */
export const queryBool = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["1", "0", "true", "false", "yes", "no"]))
  .transform((v) => v === "1" || v === "true" || v === "yes");

export function queryInt(min: number, max: number) {
  return z
    .string()
    .trim()
    .regex(/^-?\d{1,12}$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/** `a,b,c` → `["a","b","c"]` (blank entries dropped). */
export const queryList = z
  .string()
  .max(2000)
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  );

/** Hono's `c.req.query()` gives the first value of each key; repeated keys come from `queries()`. */
export function firstValues(all: Record<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, values] of Object.entries(all)) {
    const first = values[0];
    if (first !== undefined) out[key] = first;
  }
  return out;
}
