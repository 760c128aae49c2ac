import {
  type BaseMessage,
  type HumanMessage,
  isBaseMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { messageText, truncateText } from "../../core/json/serialize.js";

/** Message-derived convenience data of a run: counts, first human and last AI text. */
export class JournalMessages {
  private humanCaptured = false;
  private firstHuman: string | null = null;
  private lastAi: string | null = null;
  private count = 0;

  /** @param runInput the human messages the run request brought, with their ids (see run-input.ts). */
  constructor(private readonly runInput: readonly HumanMessage[] = []) {}

  /**
   * The run's own human messages, once per run, as its request brought them (with their ids, the
   * ids the thread state gives them). Not taken from the model's prompt: from the second turn on
   * its first human message is an earlier turn's, and a resumed run brought none. Journalled as
   * the run starts, so a message is on record even when the run stops before any model call.
   */
  runHumanInput(): readonly BaseMessage[] {
    if (this.humanCaptured) return [];
    this.humanCaptured = true;
    this.count += this.runInput.length;
    const first = this.runInput[0];
    if (first) this.firstHuman = truncateText(messageText(first));
    return this.runInput;
  }

  noteAiMessage(caller: string, message: object): void {
    this.count += 1;
    if (caller !== "lead_agent" || !isBaseMessage(message)) return;
    const text = messageText(message);
    if (text.trim()) this.lastAi = truncateText(text);
  }

  /** Tool messages carried by a tool's output (a ToolMessage or a Command with update.messages). */
  toolResults(output: unknown): BaseMessage[] {
    const found: BaseMessage[] = [];
    if (output instanceof ToolMessage) found.push(output);
    else if (typeof output === "object" && output !== null && "update" in output) {
      const update = (output as { update?: { messages?: unknown } }).update;
      if (Array.isArray(update?.messages)) {
        for (const item of update.messages) if (isBaseMessage(item)) found.push(item);
      }
    }
    this.count += found.length;
    return found;
  }

  summary(): {
    message_count: number;
    first_human_message: string | null;
    last_ai_message: string | null;
  } {
    return {
      message_count: this.count,
      first_human_message: this.firstHuman,
      last_ai_message: this.lastAi,
    };
  }
}

/**
 * The artifact paths a tool's `Command` adds to the thread state, with the tool's name (from its
 * ToolMessage, else `present_files`); null when the output presents nothing.
 */
export function presentedArtifacts(output: unknown): { tool: string; paths: string[] } | null {
  if (typeof output !== "object" || output === null || !("update" in output)) return null;
  const update = (output as { update?: { artifacts?: unknown; messages?: unknown } }).update;
  const paths = Array.isArray(update?.artifacts)
    ? update.artifacts.filter((path): path is string => typeof path === "string")
    : [];
  if (paths.length === 0) return null;
  const named = Array.isArray(update?.messages)
    ? update.messages.find((item): item is ToolMessage => item instanceof ToolMessage)
    : undefined;
  return { tool: named?.name ?? "present_files", paths };
}
