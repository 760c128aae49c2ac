import { AgentRunError } from "../../core/errors.js";

/** Bounds of what a plugin may send through its run handle. */
export const MAX_NAMESPACE_CHARS = 96;
export const MAX_KEY_CHARS = 200;
export const MAX_JSON_BYTES = 256 * 1024;
export const MAX_WAIT_SECONDS = 3600;
export const DEFAULT_WAIT_SECONDS = 60;

/** Context keys that would let a plugin pick another agent than the thread's. */
const BOUND_IDENTITY_KEYS = ["agent_name", "is_bootstrap"];

export function checkNamespace(namespace: unknown): string {
  if (
    typeof namespace !== "string" ||
    namespace.length === 0 ||
    namespace.length > MAX_NAMESPACE_CHARS ||
    namespace.includes(":")
  ) {
    throw new AgentRunError(422, "Invalid plugin namespace");
  }
  return namespace;
}

export function checkKey(key: unknown): string {
  if (typeof key !== "string" || key.trim().length === 0 || key.length > MAX_KEY_CHARS) {
    throw new AgentRunError(
      422,
      `Idempotency key must be 1-${MAX_KEY_CHARS} characters, not all blank`,
    );
  }
  return key;
}

/** How a plugin's key is stored: in its namespace, apart from HTTP clients' `http:` keys. */
export function storedKey(namespace: string, key: string): string {
  return `extension:${namespace}:${key}`;
}

/**
 * A private JSON copy of a plugin-supplied object, taken before the first await so the plugin
 * cannot change admitted data afterwards; at most 256 KiB, finite numbers only.
 */
export function copyJsonObject(value: unknown, what: string): Record<string, unknown> {
  const refused = new AgentRunError(
    422,
    `Agent run ${what} must be a JSON object of at most ${MAX_JSON_BYTES / 1024} KiB`,
  );
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw refused;
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === "number" && !Number.isFinite(v)) throw refused;
      if (typeof v === "bigint") throw refused;
      return v;
    });
  } catch {
    throw refused;
  }
  if (Buffer.byteLength(text, "utf8") > MAX_JSON_BYTES) throw refused;
  const copy: unknown = JSON.parse(text);
  if (typeof copy !== "object" || copy === null || Array.isArray(copy)) throw refused;
  return { ...copy };
}

/** The run context, without keys that would rebind the thread's agent. */
export function checkContext(context: unknown): Record<string, unknown> | undefined {
  if (context === undefined || context === null) return undefined;
  const copy = copyJsonObject(context, "context");
  if (BOUND_IDENTITY_KEYS.some((key) => key in copy)) {
    throw new AgentRunError(422, "Agent identity is bound to the thread");
  }
  return copy;
}

/** Input messages may not speak as the system. */
export function checkInput(input: unknown): Record<string, unknown> {
  const copy = copyJsonObject(input, "input");
  const messages = copy.messages;
  if (Array.isArray(messages) && messages.some(isSystemMessage)) {
    throw new AgentRunError(400, "Agent run input may not contain system messages");
  }
  return copy;
}

function isSystemMessage(message: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  const { role, type } = message as { role?: unknown; type?: unknown };
  return role === "system" || type === "system";
}

export function checkWaitSeconds(timeout: unknown): number {
  const seconds = timeout ?? DEFAULT_WAIT_SECONDS;
  if (typeof seconds !== "number" || !(seconds > 0) || seconds > MAX_WAIT_SECONDS) {
    throw new AgentRunError(
      422,
      `Wait timeout must be more than 0 and at most ${MAX_WAIT_SECONDS} seconds`,
    );
  }
  return seconds;
}
