import { isPlainObject } from "./env-expansion.js";

export const REDACTED = "***";

/** Last word of a key that marks its value secret (`access_token`, `db_password`, `Cookie`). */
const SECRET_LAST_WORDS = new Set([
  "password",
  "passwd",
  "secret",
  "token",
  "credential",
  "credentials",
  "apikey",
  "authorization",
  "cookie",
]);
/** Endings of the key with separators removed (`api_key`, `apiKey`, `provisioner_api_key`). */
const SECRET_ENDINGS = ["apikey", "accesskey", "privatekey", "secretkey", "clientsecret"];

/** Mappings whose every value is secret whatever its name (an exporter's auth headers). */
const SECRET_MAPPINGS = new Set(["otlp_headers"]);

/** `scheme://user:password@` — the password part of a URL's userinfo. */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^/@\s:]*):[^/@\s]+@/i;

/**
 * A deep copy of `value` safe to print: values under secret-looking keys become `***` (an unset
 * or empty one stays as it is, so "not configured" remains visible) and passwords inside URLs are
 * masked. Word-based matching, so `max_tokens` and `token_budget` are left readable.
 */
export function redactSecrets<T>(value: T): T {
  return redact(value) as T;
}

export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const joined = words.join("");
  return (
    SECRET_LAST_WORDS.has(words.at(-1) ?? "") ||
    SECRET_ENDINGS.some((ending) => joined.endsWith(ending))
  );
}

function redact(value: unknown): unknown {
  if (typeof value === "string") return value.replace(URL_PASSWORD, `$1:${REDACTED}@`);
  if (Array.isArray(value)) return value.map(redact);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (SECRET_MAPPINGS.has(key) && isPlainObject(item)) {
        out[key] = Object.fromEntries(
          Object.entries(item).map(([name, secret]) => [name, isSet(secret) ? REDACTED : secret]),
        );
        continue;
      }
      out[key] = isSecretKey(key) && isSet(item) ? REDACTED : redact(item);
    }
    return out;
  }
  return value;
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}
