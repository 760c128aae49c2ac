import { randomUUID } from "node:crypto";
import {
  type BaseMessage,
  type BaseMessageLike,
  coerceMessageLikeToMessage,
  HumanMessage,
  isBaseMessage,
} from "@langchain/core/messages";
import { Command, isCommand } from "@langchain/langgraph";

/** A run's graph input with its own human messages named. */
export interface IdentifiedRunInput {
  /** The input to run: the same, except that each human message it brings has an id. */
  graphInput: unknown;
  /** The human messages the run request brought (in order, each with its id); none on a resume. */
  humanMessages: HumanMessage[];
}

/**
 * Names the human messages a run brings: `input.messages`, or a command's `update.messages` (a
 * plain `resume` brings none). Each one without an id gets one here, as the messages reducer
 * would give it, so the journal can tell the run's own messages from the thread's earlier ones in
 * the model's prompt. Entries that are not human messages, or not messages at all, stay as they
 * are (the graph judges them).
 */
export function identifyRunInput(graphInput: unknown): IdentifiedRunInput {
  if (isCommand(graphInput)) return identifyCommand(graphInput);
  if (!isRecord(graphInput) || !("messages" in graphInput)) {
    return { graphInput, humanMessages: [] };
  }
  const { messages, humanMessages } = identifyMessages(graphInput.messages);
  return { graphInput: { ...graphInput, messages }, humanMessages };
}

function identifyCommand(command: Command): IdentifiedRunInput {
  const { update } = command;
  if (update === undefined || Array.isArray(update) || !("messages" in update)) {
    return { graphInput: command, humanMessages: [] };
  }
  const { messages, humanMessages } = identifyMessages(update.messages);
  if (humanMessages.length === 0) return { graphInput: command, humanMessages };
  const rebuilt = new Command({
    update: { ...update, messages },
    ...(command.resume !== undefined ? { resume: command.resume } : {}),
    ...(command.goto !== undefined ? { goto: command.goto } : {}),
    ...(command.graph !== undefined ? { graph: command.graph } : {}),
  });
  return { graphInput: rebuilt, humanMessages };
}

/** A single entry or a list, as the messages reducer accepts. */
function identifyMessages(value: unknown): { messages: unknown; humanMessages: HumanMessage[] } {
  const humanMessages: HumanMessage[] = [];
  const identify = (entry: unknown): unknown => {
    const human = humanMessageOf(entry);
    if (!human) return entry;
    humanMessages.push(human);
    return human;
  };
  const messages = Array.isArray(value) ? value.map(identify) : identify(value);
  return { messages, humanMessages };
}

function humanMessageOf(entry: unknown): HumanMessage | null {
  let message: BaseMessage;
  // The coercion the messages reducer applies checks the shape and throws on anything else.
  try {
    message = isBaseMessage(entry) ? entry : coerceMessageLikeToMessage(entry as BaseMessageLike);
  } catch {
    return null;
  }
  if (!HumanMessage.isInstance(message)) return null;
  if (message.id) return message;
  return new HumanMessage({
    content: message.content,
    id: randomUUID(),
    ...(message.name !== undefined ? { name: message.name } : {}),
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
