import { type BaseMessage, isBaseMessage, ToolMessage } from "@langchain/core/messages";
import { messageText, truncateText } from "../serialize.js";

/** Message-derived convenience data of a run: counts, first human and last AI text. */
export class JournalMessages {
  private humanCaptured = false;
  private firstHuman: string | null = null;
  private lastAi: string | null = null;
  private count = 0;

  /** The first human message the lead agent sends to its model, once per run. */
  firstHumanInput(caller: string, batches: BaseMessage[][]): BaseMessage | null {
    if (this.humanCaptured || caller !== "lead_agent") return null;
    for (const batch of batches) {
      for (const message of batch) {
        if (message.getType() !== "human") continue;
        this.humanCaptured = true;
        this.count += 1;
        this.firstHuman = truncateText(messageText(message));
        return message;
      }
    }
    return null;
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
