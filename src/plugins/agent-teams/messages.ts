import type { AgentThreadState } from "../../extensions/api/index.js";
import type { Clarification } from "./model.js";

/*
 * Reading a member thread's messages as the host reports them: LangChain dicts (`{type: "human" |
 * "ai" | "tool", content, id, …}`) or role-style input messages (`{role: "user", …}`).
 */

export interface ThreadMessage {
  role: "human" | "ai" | "tool" | "other";
  id: string | null;
  text: string;
  name: string | null;
  toolCalls: number;
  additional: Record<string, unknown>;
  artifact: unknown;
}

const RESULT_LIMIT_BYTES = 6000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function roleOf(raw: Record<string, unknown>): ThreadMessage["role"] {
  const kind = raw.type ?? raw.role;
  if (kind === "human" || kind === "user") return "human";
  if (kind === "ai" || kind === "assistant") return "ai";
  if (kind === "tool") return "tool";
  return "other";
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      typeof part === "string" ? part : isRecord(part) && part.type === "text" ? part.text : "",
    )
    .filter((part): part is string => typeof part === "string" && part !== "")
    .join("\n");
}

export function messagesOf(state: AgentThreadState): ThreadMessage[] {
  const raw = state.values.messages;
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).map((m) => ({
    role: roleOf(m),
    id: typeof m.id === "string" ? m.id : null,
    text: textOf(m.content),
    name: typeof m.name === "string" ? m.name : null,
    toolCalls: Array.isArray(m.tool_calls) ? m.tool_calls.length : 0,
    additional: isRecord(m.additional_kwargs) ? m.additional_kwargs : {},
    artifact: m.artifact,
  }));
}

/** The thread's head, for the capture fence: checkpoint id and message identity. */
export interface StateMark {
  checkpointId: string | null;
  count: number;
  lastId: string | null;
}

export function markOf(state: AgentThreadState): StateMark {
  const messages = messagesOf(state);
  return {
    checkpointId: state.checkpointId ?? null,
    count: messages.length,
    lastId: messages.at(-1)?.id ?? null,
  };
}

export const sameMark = (a: StateMark, b: StateMark): boolean =>
  a.checkpointId === b.checkpointId && a.count === b.count && a.lastId === b.lastId;

export const waitsOnInterrupt = (state: AgentThreadState): boolean =>
  state.next.length > 0 || state.interrupts.length > 0;

/**
 * The question of a trailing `ask_clarification` tool message (Fawn's clarification middleware
 * puts `artifact.human_input`, a `human_input_request`, on it), or null.
 */
export function trailingClarification(state: AgentThreadState): Clarification | null {
  const last = messagesOf(state).at(-1);
  if (last === undefined || last.role !== "tool") return null;
  const request = isRecord(last.artifact) ? last.artifact.human_input : undefined;
  if (!isRecord(request) || request.kind !== "human_input_request") return null;
  if (typeof request.question !== "string" || typeof request.request_id !== "string") return null;
  return { question: request.question, request_id: request.request_id, message_id: last.id };
}

export type Attribution = { ok: true; result: string } | { ok: false; error: string };

/**
 * The job's answer: the last AI message without tool calls after the job's own request message
 * (found by id `team-<job>` or by the run id the host stamped on it).
 */
export function attribute(
  state: AgentThreadState,
  jobId: string,
  initialRunId: string | null,
): Attribution {
  const messages = messagesOf(state);
  const marker = messages.findIndex(
    (m) =>
      m.role === "human" &&
      (m.id === `team-${jobId}` || (initialRunId !== null && m.additional.run_id === initialRunId)),
  );
  if (marker < 0) {
    return { ok: false, error: "Request checkpoint no longer available in the member thread." };
  }
  const after = messages.slice(marker + 1);
  // A clarification answer continues this request; any other human turn is someone else's.
  if (after.some((m) => m.role === "human" && m.additional.human_input_response === undefined)) {
    return { ok: false, error: "Conversation advanced outside this request; no answer taken." };
  }
  const answer = after.filter((m) => m.role === "ai" && m.toolCalls === 0).at(-1);
  return { ok: true, result: capBytes(answer?.text ?? "") };
}

function capBytes(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= RESULT_LIMIT_BYTES) return text;
  const cut = bytes
    .subarray(0, RESULT_LIMIT_BYTES)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return `${cut}\n[answer truncated]`;
}
