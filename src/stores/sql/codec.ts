import { ValidationError } from "../../core/errors.js";

/** ISO datetimes without a zone are UTC, as the reference's SQL stores read naive values. */
const NAIVE_DATETIME = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/;

/**
 * The stored form of a timestamp: canonical `toISOString()` (UTC, millisecond precision, fixed
 * width). On SQLite that makes text comparison agree with time order; on PostgreSQL the value is
 * cast to `timestamptz`.
 */
export function toDbTimestamp(value: string, field: string): string {
  const text = NAIVE_DATETIME.test(value) ? `${value.replace(" ", "T")}Z` : value;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) {
    throw new ValidationError(
      `${field} must be an ISO-8601 datetime; got ${JSON.stringify(value)}.`,
    );
  }
  return new Date(ms).toISOString();
}

export function toDbTimestampOrNull(
  value: string | null | undefined,
  field: string,
): string | null {
  return value === null || value === undefined ? null : toDbTimestamp(value, field);
}

/** `now - seconds` in the stored timestamp form. */
export function secondsBefore(now: string, seconds: number): string {
  return new Date(Date.parse(toDbTimestamp(now, "now")) - seconds * 1000).toISOString();
}

/** PostgreSQL hands back Date objects, SQLite the stored ISO text. */
export function fromDbTimestamp(value: Date | string): string {
  if (value instanceof Date) return value.toISOString();
  return toDbTimestamp(value, "stored timestamp");
}

export function fromDbTimestampOrNull(value: Date | string | null): string | null {
  return value === null ? null : fromDbTimestamp(value);
}

export function toDbJson(value: unknown): string {
  return JSON.stringify(value ?? {});
}

/**
 * PostgreSQL `jsonb` arrives parsed; SQLite TEXT arrives as JSON text. JSON columns only ever hold
 * objects, so a string here is always SQLite's encoding.
 */
export function fromDbJson(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

export function fromDbObject(value: unknown): Record<string, unknown> {
  const parsed = fromDbJson(value);
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

/** `pg` reads int8 (and count(*)) as strings to avoid precision loss; our values fit a double. */
export function toNumber(value: number | string | bigint | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === "number" ? value : Number(value);
}

export function toNumberOrNull(value: number | string | bigint | null): number | null {
  return value === null ? null : toNumber(value);
}

export function toBoolean(value: boolean | number): boolean {
  return typeof value === "boolean" ? value : value !== 0;
}

/** Cuts by code points (not UTF-16 units) so a surrogate pair is never split. */
export function truncateChars(text: string | null, max: number): string | null {
  if (text === null || text.length <= max) return text;
  return Array.from(text).slice(0, max).join("");
}
