/**
 * Turns the flat LangChain message list of a thread into what the chat renders: user bubbles,
 * "steps" blocks (reasoning, interim text and tool calls with their results), clarification
 * questions and final answers. Pure, so it is unit tested without a browser.
 */

/** The parts of a LangChain message (as the LangGraph SDK delivers it) that the UI reads. */
export interface ChatMessage {
  type: string;
  id?: string | undefined;
  content: unknown;
  name?: string | undefined;
  tool_calls?: ReadonlyArray<ToolCallLike> | undefined;
  tool_call_id?: string | undefined;
  status?: string | undefined;
  additional_kwargs?: Record<string, unknown> | undefined;
  artifact?: unknown;
}

export interface ToolCallLike {
  id?: string | undefined;
  name: string;
  args: Record<string, unknown>;
}

export interface AttachedFile {
  filename: string;
}

export type Step =
  | { kind: "reasoning"; text: string }
  | { kind: "text"; text: string }
  | {
      kind: "tool";
      id: string;
      name: string;
      args: Record<string, unknown>;
      /** Undefined until the tool's result arrives. */
      result: string | undefined;
      failed: boolean;
      /** The result ToolMessage's `additional_kwargs` (a `task` call's sub-agent facts). */
      kwargs: Record<string, unknown> | undefined;
    };

export interface ClarificationOption {
  label: string;
  value: string;
}

export type MessageGroup =
  | {
      kind: "human";
      key: string;
      /** The message's id (null for an optimistic bubble the server has not echoed yet). */
      messageId: string | null;
      text: string;
      files: AttachedFile[];
    }
  | { kind: "steps"; key: string; steps: Step[] }
  | { kind: "assistant"; key: string; messageId: string | null; text: string; reasoning: string }
  | {
      kind: "clarification";
      key: string;
      question: string;
      context: string;
      options: ClarificationOption[];
      text: string;
    };

/** Middleware control messages the reference hides by name. */
const HIDDEN_NAMES = new Set(["summary", "loop_warning", "todo_reminder"]);

export function groupMessages(messages: ReadonlyArray<ChatMessage>): MessageGroup[] {
  const groups: MessageGroup[] = [];
  // Tool steps by tool_call_id, so a result finds its call in O(1).
  const toolSteps = new Map<string, Extract<Step, { kind: "tool" }>>();
  let steps: Extract<MessageGroup, { kind: "steps" }> | null = null;

  const openSteps = (key: string): Step[] => {
    if (steps === null) {
      steps = { kind: "steps", key: `steps:${key}`, steps: [] };
      groups.push(steps);
    }
    return steps.steps;
  };

  messages.forEach((message, index) => {
    const key = message.id ?? `index:${index}`;
    if (isHidden(message)) return;
    if (message.type === "human") {
      steps = null;
      groups.push({
        kind: "human",
        key: `human:${key}`,
        messageId: message.id ?? null,
        text: stripInternalTags(contentText(message.content)),
        files: attachedFiles(message.additional_kwargs),
      });
      return;
    }
    if (message.type === "ai") {
      const { text, reasoning } = splitReasoning(message);
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) {
        if (!text.trim() && !reasoning.trim()) return;
        steps = null;
        groups.push({
          kind: "assistant",
          key: `ai:${key}`,
          messageId: message.id ?? null,
          text,
          reasoning,
        });
        return;
      }
      const target = openSteps(key);
      if (reasoning.trim()) target.push({ kind: "reasoning", text: reasoning });
      if (text.trim()) target.push({ kind: "text", text });
      calls.forEach((call, callIndex) => {
        const id = call.id ?? `${key}:${callIndex}`;
        const step: Extract<Step, { kind: "tool" }> = {
          kind: "tool",
          id,
          name: call.name,
          args: call.args ?? {},
          result: undefined,
          failed: false,
          kwargs: undefined,
        };
        toolSteps.set(id, step);
        target.push(step);
      });
      return;
    }
    if (message.type === "tool") {
      const result = contentText(message.content);
      const step = message.tool_call_id ? toolSteps.get(message.tool_call_id) : undefined;
      if (step) {
        step.result = result;
        step.failed = message.status === "error";
        step.kwargs = message.additional_kwargs;
      }
      if (message.name === "ask_clarification") {
        steps = null;
        groups.push(clarificationGroup(key, message, result));
      }
    }
  });
  return groups;
}

function isHidden(message: ChatMessage): boolean {
  if (message.additional_kwargs?.hide_from_ui === true) return true;
  if (message.type === "system") return true;
  return message.name !== undefined && HIDDEN_NAMES.has(message.name) && message.type !== "tool";
}

/** Text of a message's content: a string, or the text parts of a content list. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => {
      if (typeof part === "string") return part;
      if (isRecord(part) && part.type === "text" && typeof part.text === "string") return part.text;
      return "";
    })
    .join("");
}

/** Reasoning comes as `additional_kwargs.reasoning_content`, reasoning parts, or `<think>` text. */
export function splitReasoning(message: ChatMessage): { text: string; reasoning: string } {
  let reasoning = "";
  const kwarg = message.additional_kwargs?.reasoning_content;
  if (typeof kwarg === "string") reasoning += kwarg;
  if (Array.isArray(message.content)) {
    for (const part of message.content as unknown[]) {
      if (!isRecord(part)) continue;
      if (part.type === "reasoning" && typeof part.reasoning === "string")
        reasoning += part.reasoning;
      if (part.type === "thinking" && typeof part.thinking === "string") reasoning += part.thinking;
    }
  }
  let text = contentText(message.content);
  const think = /<think>([\s\S]*?)(?:<\/think>|$)/;
  const match = think.exec(text);
  if (match) {
    reasoning += match[1] ?? "";
    text = text.replace(think, "");
  }
  return { text, reasoning };
}

/** Blocks the uploads and skills middlewares add to the user's text for the model only. */
export function stripInternalTags(text: string): string {
  return text
    .replace(/<(current_uploads|uploaded_files|slash_skill_activation)>[\s\S]*?<\/\1>\s*/g, "")
    .trim();
}

function attachedFiles(kwargs: Record<string, unknown> | undefined): AttachedFile[] {
  const files = kwargs?.files;
  if (!Array.isArray(files)) return [];
  return files.flatMap((file: unknown) =>
    isRecord(file) && typeof file.filename === "string" ? [{ filename: file.filename }] : [],
  );
}

function clarificationGroup(
  key: string,
  message: ChatMessage,
  text: string,
): Extract<MessageGroup, { kind: "clarification" }> {
  const request =
    isRecord(message.artifact) && isRecord(message.artifact.human_input)
      ? message.artifact.human_input
      : null;
  const options: ClarificationOption[] = [];
  if (request && Array.isArray(request.options)) {
    for (const option of request.options as unknown[]) {
      if (isRecord(option) && typeof option.label === "string") {
        const value = typeof option.value === "string" ? option.value : option.label;
        options.push({ label: option.label, value });
      }
    }
  }
  return {
    kind: "clarification",
    key: `clarification:${key}`,
    question: request && typeof request.question === "string" ? request.question : text,
    context: request && typeof request.context === "string" ? request.context : "",
    options,
    text,
  };
}

/** One turn: a user message and the groups answering it, up to the next user message. */
export interface Turn {
  humanIndex: number;
  lastIndex: number;
  humanMessageId: string | null;
  text: string;
}

export function turnsOf(groups: ReadonlyArray<MessageGroup>): Turn[] {
  const turns: Turn[] = [];
  groups.forEach((group, index) => {
    if (group.kind === "human") {
      turns.push({
        humanIndex: index,
        lastIndex: index,
        humanMessageId: group.messageId,
        text: group.text,
      });
    } else {
      const turn = turns.at(-1);
      if (turn) turn.lastIndex = index;
    }
  });
  return turns;
}

/** A short one-line summary of a tool call for its collapsed header. */
export function toolCallSummary(name: string, args: Record<string, unknown>): string {
  const pick = (key: string): string | undefined =>
    typeof args[key] === "string" ? (args[key] as string) : undefined;
  if (name === "present_files" && Array.isArray(args.filepaths)) {
    return args.filepaths.filter((p): p is string => typeof p === "string").join(", ");
  }
  const summary =
    pick("description") ?? pick("path") ?? pick("query") ?? pick("url") ?? pick("command") ?? "";
  const line = summary.split("\n")[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
