import { z } from "zod";
import {
  estimateTokens,
  replyText,
  type ScriptedReply,
  type ScriptMessage,
  splitIntoChunks,
} from "../scripted/script-engine.js";

/** The parts of an OpenAI chat-completions request the mock reads; the rest is accepted as is. */
const contentSchema = z.union([
  z.string(),
  z.null(),
  z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
]);

export const chatRequestSchema = z.looseObject({
  model: z.string().default("fawn-scripted"),
  messages: z
    .array(
      z.looseObject({
        role: z.string(),
        content: contentSchema.optional(),
        name: z.string().optional(),
      }),
    )
    .min(1),
  stream: z.boolean().optional(),
  tools: z
    .array(z.looseObject({ function: z.looseObject({ name: z.string() }).optional() }))
    .max(1024)
    .optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
});

export type ChatRequest = z.output<typeof chatRequestSchema>;

export function toScriptMessages(request: ChatRequest): ScriptMessage[] {
  return request.messages.map((message) => ({
    role: roleOf(message.role),
    text: textOf(message.content),
    name: message.name,
  }));
}

function roleOf(role: string): ScriptMessage["role"] {
  if (role === "user") return "human";
  if (role === "assistant") return "ai";
  if (role === "tool" || role === "function") return "tool";
  return "system";
}

function textOf(content: z.output<typeof contentSchema> | undefined): string {
  if (typeof content === "string") return content;
  if (!content) return "";
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function usageOf(messages: readonly ScriptMessage[], reply: ScriptedReply): Usage {
  const prompt = estimateTokens(messages.map((m) => m.text).join(""));
  const completion = estimateTokens(replyText(reply));
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}

function finishReason(reply: ScriptedReply): "tool_calls" | "stop" {
  return reply.toolCalls.length > 0 ? "tool_calls" : "stop";
}

interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

/** A whole `chat.completion` object (non-streaming answer). */
export function completionBody(identity: CompletionIdentity, reply: ScriptedReply, usage: Usage) {
  return {
    id: identity.id,
    object: "chat.completion",
    created: identity.created,
    model: identity.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.content,
          ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
          ...(reply.toolCalls.length > 0
            ? {
                tool_calls: reply.toolCalls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: JSON.stringify(call.args) },
                })),
              }
            : {}),
        },
        finish_reason: finishReason(reply),
      },
    ],
    usage,
  };
}

/**
 * The `chat.completion.chunk` frames of a streamed answer: role, reasoning pieces, content pieces,
 * each tool call (name first, then its arguments in two pieces, as real servers split them), the
 * finish reason, and the usage frame when the client asked for it.
 */
export function completionChunks(
  identity: CompletionIdentity,
  reply: ScriptedReply,
  usage: Usage | null,
): object[] {
  const frame = (delta: object, finish: string | null = null) => ({
    id: identity.id,
    object: "chat.completion.chunk",
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const frames: object[] = [frame({ role: "assistant", content: "" })];
  for (const piece of splitIntoChunks(reply.reasoning ?? "")) {
    frames.push(frame({ reasoning_content: piece }));
  }
  for (const piece of splitIntoChunks(reply.content)) frames.push(frame({ content: piece }));
  reply.toolCalls.forEach((call, index) => {
    const args = JSON.stringify(call.args);
    const half = Math.ceil(args.length / 2);
    frames.push(
      frame({
        tool_calls: [
          { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
    );
    for (const piece of [args.slice(0, half), args.slice(half)]) {
      if (piece) frames.push(frame({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  frames.push(frame({}, finishReason(reply)));
  if (usage) {
    frames.push({
      id: identity.id,
      object: "chat.completion.chunk",
      created: identity.created,
      model: identity.model,
      choices: [],
      usage,
    });
  }
  return frames;
}

/** Names of the tools the request binds (`tools[].function.name`). */
export function requestToolNames(request: ChatRequest): Set<string> {
  return new Set(
    (request.tools ?? []).flatMap((tool) => (tool.function ? [tool.function.name] : [])),
  );
}
