import { type BaseMessage, isBaseMessage } from "@langchain/core/messages";

/** JSON value as it travels in events and over SSE. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A LangChain message in the dict shape the LangGraph SDK and UI expect
 * (`{type, content, id, name, tool_calls, ...}`): the fields `message.toDict()` lists, read
 * straight off the message. `toDict()` goes through LangChain's generic serializer (prototype walk,
 * secrets, escaping) and cost ~10 µs per streamed token; messages have no secrets, so a class
 * that declares any still takes that path.
 */
export function messageToDict(message: BaseMessage): Record<string, Json> {
  const layout = messageLayout(message);
  if (layout === null) {
    const data = toJson(message.toDict().data) as Record<string, Json>;
    return { ...data, type: message.getType() };
  }
  const fields = message.lc_kwargs as Record<string, unknown>;
  const out: Record<string, Json> = {};
  const ancestors: object[] = [message];
  for (const key of Object.keys(fields)) {
    const item: unknown = key in message ? Reflect.get(message, key) : fields[key];
    if (item === undefined || typeof item === "function") continue;
    out[layout.aliases[key] ?? snakeCase(key)] = convert(item, ancestors);
  }
  out.type = message.getType();
  return out;
}

interface MessageLayout {
  aliases: Record<string, string>;
}

/** Per message class: its key aliases, or null when `toDict()` must be used (secrets, attributes). */
const layouts = new WeakMap<object, MessageLayout | null>();

function messageLayout(message: BaseMessage): MessageLayout | null {
  const proto: unknown = Object.getPrototypeOf(message);
  if (typeof proto !== "object" || proto === null) return null;
  const known = layouts.get(proto);
  if (known !== undefined) return known;
  let layout: MessageLayout | null = { aliases: {} };
  for (
    let current: object | null = proto;
    current !== null;
    current = Object.getPrototypeOf(current)
  ) {
    const secrets: unknown = Reflect.get(current, "lc_secrets", message);
    const attributes: unknown = Reflect.get(current, "lc_attributes", message);
    if (!isEmptyRecord(secrets) || !isEmptyRecord(attributes)) {
      layout = null;
      break;
    }
    const aliases: unknown = Reflect.get(current, "lc_aliases", message);
    if (typeof aliases === "object" && aliases !== null) Object.assign(layout.aliases, aliases);
  }
  layouts.set(proto, layout);
  return layout;
}

function isEmptyRecord(value: unknown): boolean {
  return (
    value === undefined ||
    (typeof value === "object" && value !== null && Object.keys(value).length === 0)
  );
}

/** LangChain's key mapping: `toolCallId` → `tool_call_id`; snake_case keys stay as they are. */
function snakeCase(key: string): string {
  return /[A-Z]/.test(key) ? key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) : key;
}

/**
 * Convert any graph output into plain JSON: messages become dicts, Dates ISO strings, Maps/Sets
 * arrays and objects, bigints strings, cycles and functions are dropped.
 */
export function toJson(value: unknown): Json {
  return convert(value, []);
}

/** `ancestors` is the path from the root: a value met again on it is a cycle (dropped as null). */
function convert(value: unknown, ancestors: object[]): Json {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return value.toString();
    case "object":
      break;
    default:
      return null;
  }
  if (value === null) return null;
  if (isBaseMessage(value)) return messageToDict(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (ancestors.includes(value)) return null;
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      const out: Json[] = new Array(value.length);
      for (let index = 0; index < value.length; index++) {
        out[index] = convert(value[index], ancestors);
      }
      return out;
    }
    if (value instanceof Map) return convert(Object.fromEntries(value), ancestors);
    if (value instanceof Set) return [...value].map((item) => convert(item, ancestors));
    if (value instanceof Error) return { name: value.name, message: value.message };
    const withToJson = value as { toJSON?: () => unknown };
    if (typeof withToJson.toJSON === "function" && !isPlainObject(value)) {
      return convert(withToJson.toJSON(), ancestors);
    }
    const record = value as Record<string, unknown>;
    const out: Record<string, Json> = {};
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (item === undefined || typeof item === "function") continue;
      out[key] = convert(item, ancestors);
    }
    return out;
  } finally {
    ancestors.pop();
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
