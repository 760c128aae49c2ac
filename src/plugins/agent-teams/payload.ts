/*
 * Checks of action and tool payloads: each names its exact field set, and a bad value is a plain
 * Error whose message tells the caller what to send instead.
 */

export type Payload = Record<string, unknown>;

export function fields(payload: Payload, required: string[], optional: string[] = []): void {
  const allowed = new Set([...required, ...optional]);
  for (const name of Object.keys(payload)) {
    if (!allowed.has(name)) throw new Error(`Unexpected field "${name}".`);
  }
  for (const name of required) {
    if (payload[name] === undefined) throw new Error(`Missing field "${name}".`);
  }
}

export function text(payload: Payload, name: string, max: number): string {
  const value = payload[name];
  if (typeof value !== "string" || value.trim() === "") {
    throw new Error(`"${name}" must be a non-empty string.`);
  }
  if (value.length > max) throw new Error(`"${name}" exceeds the limit of ${max} characters.`);
  return value;
}

export function int(
  payload: Payload,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const value = payload[name] ?? fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`"${name}" must be an integer from ${min} to ${max}.`);
  }
  return value;
}

export function bool(payload: Payload, name: string, fallback: boolean): boolean {
  const value = payload[name] ?? fallback;
  if (typeof value !== "boolean") throw new Error(`"${name}" must be a boolean.`);
  return value;
}

export function list(payload: Payload, name: string, min: number, max: number): unknown[] {
  const value = payload[name];
  if (!Array.isArray(value) || value.length < min || value.length > max) {
    throw new Error(`"${name}" must be a list of ${min} to ${max} entries (limit).`);
  }
  return value;
}

export const isRecord = (value: unknown): value is Payload =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function record(value: unknown, what: string): Payload {
  if (!isRecord(value)) throw new Error(`${what} must be an object.`);
  return value;
}

export const utf8Bytes = (value: string): number => Buffer.byteLength(value, "utf8");
