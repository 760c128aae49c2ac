import { type BaseMessage, isBaseMessage } from "@langchain/core/messages";

/** JSON value as it travels in events and over SSE. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A LangChain message in the dict shape the LangGraph SDK and UI expect
 * (`{type, content, id, name, tool_calls, ...}`).
 */
export function messageToDict(message: BaseMessage): Record<string, Json> {
  const stored = message.toDict();
  const data = toJson(stored.data) as Record<string, Json>;
  return { ...data, type: message.getType() };
}

/**
 * Convert any graph output into plain JSON: messages become dicts, Dates ISO strings, Maps/Sets
 * arrays and objects, bigints strings, cycles and functions are dropped.
 */
export function toJson(value: unknown, seen: WeakSet<object> = new WeakSet()): Json {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return value.toString();
    case "function":
    case "symbol":
      return null;
    default:
      break;
  }
  if (isBaseMessage(value)) return messageToDict(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (typeof value !== "object") return null;
  if (seen.has(value)) return null;
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => toJson(item, seen));
    if (value instanceof Map) return toJson(Object.fromEntries(value), seen);
    if (value instanceof Set) return [...value].map((item) => toJson(item, seen));
    if (value instanceof Error) return { name: value.name, message: value.message };
    const withToJson = value as { toJSON?: () => unknown };
    if (typeof withToJson.toJSON === "function" && !isPlainObject(value)) {
      return toJson(withToJson.toJSON(), seen);
    }
    const out: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === "function") continue;
      out[key] = toJson(item, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Trim a string to `max` characters (convenience columns). */
export function truncateText(text: string | null | undefined, max = 2000): string | null {
  if (text == null) return null;
  return text.length > max ? text.slice(0, max) : text;
}

/** The plain text of a message's content (string or content blocks). */
export function messageText(message: BaseMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  return content
    .map((block) =>
      typeof block === "object" && block !== null && "text" in block ? String(block.text) : "",
    )
    .join("");
}
