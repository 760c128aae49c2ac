import { randomUUID } from "node:crypto";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type MessageContent,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { type ModelDialect, replaceAIFields } from "./dialect.js";

/**
 * Huawei MindIE: its chat templates cannot take OpenAI tool messages (they yield empty answers),
 * so tool traffic is written as the model's own `<tool_call>` / `<tool_response>` text and tool
 * calls are parsed back out of the answer; with tools bound it drops streamed choices, so those
 * answers are fetched whole. Its split timeouts collapse into one (the read timeout).
 */
export const MINDIE_DIALECT: ModelDialect = {
  name: "mindie",
  wholeAnswersWithTools: true,
  adjustSettings(settings) {
    const { connect_timeout, read_timeout, write_timeout, pool_timeout, ...rest } = settings;
    if (rest.timeout === undefined && rest.request_timeout === undefined) {
      rest.timeout = typeof read_timeout === "number" ? read_timeout : 900;
    }
    return rest;
  },
  prepareMessages: (messages) => messages.map(asTemplateText),
  finishMessage(message) {
    if (typeof message.content !== "string") return message;
    const decoded = decodeEscapedNewlines(message.content);
    const { text, calls } = parseToolCalls(decoded);
    if (calls.length === 0 && decoded === message.content) return message;
    return replaceAIFields(message, {
      content: text,
      tool_calls: [...(message.tool_calls ?? []), ...calls],
    });
  },
};

function asTemplateText(message: BaseMessage): BaseMessage {
  const text = flatText(message.content);
  if (AIMessage.isInstance(message) && (message.tool_calls?.length ?? 0) > 0) {
    const calls = (message.tool_calls ?? []).map(toolCallXml).join("\n");
    return new AIMessage({ content: (text ? `${text}\n${calls}` : calls).trim() || " " });
  }
  if (ToolMessage.isInstance(message)) {
    // Escaped, so a result holding "</tool_response>" cannot close the frame early.
    return new HumanMessage(`<tool_response>\n${escapeXml(text)}\n</tool_response>`);
  }
  if (typeof message.content === "string" && message.content.trim() !== "") return message;
  // Flat text, never empty: the templates fail on block lists and empty turns.
  const content = text.trim() === "" ? " " : text;
  if (HumanMessage.isInstance(message)) {
    return new HumanMessage({ content, id: message.id, name: message.name });
  }
  if (SystemMessage.isInstance(message)) return new SystemMessage({ content, id: message.id });
  if (AIMessage.isInstance(message)) return replaceAIFields(message, { content });
  return message;
}

function toolCallXml(call: ToolCall): string {
  const params = Object.entries(call.args)
    .map(([key, value]) => {
      const shown = typeof value === "string" ? value : JSON.stringify(value);
      return `<parameter=${escapeXml(key)}>${escapeXml(shown)}</parameter>`;
    })
    .join(" ");
  return `<tool_call> <function=${escapeXml(call.name)}> ${params} </function> </tool_call>`;
}

function flatText(content: MessageContent): string {
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      return part.type === "text" && typeof part.text === "string" ? part.text : "";
    })
    .join("");
}

/** `<tool_call>` blocks (nesting tolerated) out of an answer: the rest of the text, and the calls. */
export function parseToolCalls(content: string): { text: string; calls: ToolCall[] } {
  if (!content.includes("<tool_call>")) return { text: content, calls: [] };
  const calls: ToolCall[] = [];
  let text = "";
  let cursor = 0;
  for (const block of toolCallBlocks(content)) {
    text += content.slice(cursor, block.start);
    cursor = block.end;
    const name = /<function=([^>]+)>/.exec(block.inner)?.[1]?.trim();
    if (!name) continue;
    const own = withoutNestedBlocks(block.inner);
    const args: Record<string, unknown> = {};
    for (const match of own.matchAll(/<parameter=([^>]+)>([\s\S]*?)<\/parameter>/g)) {
      const key = unescapeXml((match[1] ?? "").trim());
      args[key] = parameterValue(unescapeXml((match[2] ?? "").trim()));
    }
    calls.push({
      name: unescapeXml(name),
      args,
      id: `call_${randomUUID().replaceAll("-", "").slice(0, 10)}`,
      type: "tool_call",
    });
  }
  text += content.slice(cursor);
  return { text: text.trim(), calls };
}

interface Block {
  start: number;
  end: number;
  inner: string;
}

function toolCallBlocks(content: string): Block[] {
  const blocks: Block[] = [];
  let depth = 0;
  let start = -1;
  for (const match of content.matchAll(/<\/?tool_call>/g)) {
    if (match[0] === "<tool_call>") {
      if (depth === 0) start = match.index;
      depth += 1;
    } else if (depth > 0) {
      depth -= 1;
      if (depth === 0 && start >= 0) {
        const end = match.index + match[0].length;
        blocks.push({
          start,
          end,
          inner: content.slice(start + "<tool_call>".length, match.index),
        });
        start = -1;
      }
    }
  }
  return blocks;
}

function withoutNestedBlocks(inner: string): string {
  let out = "";
  let cursor = 0;
  for (const block of toolCallBlocks(inner)) {
    out += inner.slice(cursor, block.start);
    cursor = block.end;
  }
  return out + inner.slice(cursor);
}

/** JSON-looking values become values (tools validate types); anything else stays text. */
function parameterValue(raw: string): unknown {
  const looksJson =
    raw.startsWith("[") ||
    raw.startsWith("{") ||
    ["true", "false", "null"].includes(raw) ||
    /^\d+$/.test(raw);
  if (!looksJson) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** MindIE gateways over-escape newlines; code fences are left as they are. */
function decodeEscapedNewlines(content: string): string {
  if (!content.includes("\\n")) return content;
  return content
    .split(/(```[\s\S]*?```)/)
    .map((part) => (part.startsWith("```") ? part : part.replaceAll("\\n", "\n")))
    .join("");
}

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function unescapeXml(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&amp;", "&");
}
