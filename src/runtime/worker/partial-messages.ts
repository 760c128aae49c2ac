import {
  type AIMessageChunk,
  isAIMessageChunk,
  isBaseMessage,
  isBaseMessageChunk,
} from "@langchain/core/messages";
import type { Json } from "../../core/json/serialize.js";
import { toJson } from "../../core/json/serialize.js";
import type { StreamEventV2 } from "./stream-events-handler.js";
import { publicJson } from "./stream-payloads.js";

/** One SSE event of the API's `messages` mode. */
export interface MessagesEvent {
  event: "messages/metadata" | "messages/partial" | "messages/complete";
  data: Json;
}

/**
 * The platform's `messages` mode: a chat model's tokens become `messages/partial` (the message so
 * far, each time), announced once by `messages/metadata`; messages in the graph's values become
 * `messages/complete`, once per message id.
 */
export class PartialMessages {
  private readonly streaming = new Map<string, AIMessageChunk>();
  private readonly completed = new Set<string>();

  /** The events of one stream event (only `on_chat_model_stream` gives any). */
  ofStreamEvent(event: StreamEventV2): MessagesEvent[] {
    if (event.event !== "on_chat_model_stream" || event.tags.includes("nostream")) return [];
    const chunk = aiChunkOf((event.data as { chunk?: unknown } | null)?.chunk);
    if (!chunk?.id) return [];
    const out: MessagesEvent[] = [];
    const previous = this.streaming.get(chunk.id);
    let message: AIMessageChunk;
    if (previous === undefined) {
      message = chunk;
      out.push({
        event: "messages/metadata",
        data: { [chunk.id]: { metadata: publicJson(event.metadata) } },
      });
    } else message = previous.concat(chunk);
    this.streaming.set(chunk.id, message);
    out.push({ event: "messages/partial", data: [toJson(message)] });
    return out;
  }

  /** The `messages/complete` event of a root `values` chunk, when it holds new messages. */
  ofValues(values: unknown): MessagesEvent | null {
    const list = (values as { messages?: unknown } | null)?.messages;
    if (list === undefined || isBaseMessage(list)) return null;
    const messages = Array.isArray(list) ? list : [list];
    const fresh: Json[] = [];
    for (const message of messages) {
      // The id is read before converting: a step's values repeat every earlier message.
      const id = (message as { id?: unknown } | null)?.id;
      if (typeof id !== "string" || this.completed.has(id)) continue;
      this.completed.add(id);
      this.streaming.delete(id);
      fresh.push(toJson(message));
    }
    return fresh.length > 0 ? { event: "messages/complete", data: fresh } : null;
  }
}

function aiChunkOf(value: unknown): AIMessageChunk | null {
  return isBaseMessageChunk(value) && isAIMessageChunk(value) ? value : null;
}
