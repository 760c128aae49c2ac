import { createHash } from "node:crypto";

/**
 * What a finished `task` call reports: the text the lead agent reads,
 * and structured facts in the ToolMessage's `additional_kwargs` for clients and the ledger.
 */

export const SUBAGENT_STATUSES = [
  "completed",
  "failed",
  "cancelled",
  "timed_out",
  "polling_timed_out",
] as const;
export type SubagentStatus = (typeof SUBAGENT_STATUSES)[number];

/** Why a guard ended the sub-agent early; a capped run with an answer is still `completed`. */
export type SubagentStopReason = "token_capped" | "turn_capped" | "loop_capped";

export interface SubagentTokenUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface SubagentOutcome {
  status: Exclude<SubagentStatus, "polling_timed_out">;
  /** The last AI message's text (completed only). */
  result?: string;
  error?: string;
  stopReason?: SubagentStopReason;
  usage: SubagentTokenUsage | null;
}

const BRIEF_MAX_CHARS = 2000;
const BRIEF_GAP = "\n...\n";

const CAP_LABELS: Record<SubagentStopReason, string> = {
  token_capped: "token budget",
  turn_capped: "turn budget",
  loop_capped: "repeated tool-call loop",
};

/** The text the lead agent reads in the `task` ToolMessage. */
export function taskResultText(outcome: SubagentOutcome): string {
  const capped = outcome.stopReason ? ` (capped: ${CAP_LABELS[outcome.stopReason]})` : "";
  const error = outcome.error?.trim() ?? "";
  switch (outcome.status) {
    case "completed":
      return `Task Succeeded${capped}. Result: ${outcome.result ?? ""}`;
    case "cancelled":
      return withDetail("Task cancelled by user.", error);
    case "timed_out":
      return withDetail("Task timed out.", error);
    case "failed":
      return withDetail(`Task failed${capped}.`, error);
  }
}

/** `Task timed out. Error: <detail>`, or the sentence alone when the detail adds nothing. */
function withDetail(sentence: string, detail: string): string {
  return detail && detail !== sentence ? `${sentence} Error: ${detail}` : sentence;
}

/** `additional_kwargs` of the `task` ToolMessage; empty values are left out, never sent blank. */
export function taskResultKwargs(
  outcome: SubagentOutcome,
  modelName: string | null,
): Record<string, unknown> {
  const kwargs: Record<string, unknown> = { subagent_status: outcome.status };
  const result = outcome.result ?? "";
  if (outcome.status === "completed" && result.trim()) {
    kwargs.subagent_result_brief = resultBrief(result);
    kwargs.subagent_result_sha256 = createHash("sha256").update(result, "utf8").digest("hex");
  }
  const error = outcome.error?.trim();
  if (outcome.status !== "completed" && error) kwargs.subagent_error = resultBrief(error);
  if (outcome.stopReason) kwargs.subagent_stop_reason = outcome.stopReason;
  if (modelName) kwargs.subagent_model_name = modelName;
  if (outcome.usage) kwargs.subagent_token_usage = outcome.usage;
  return kwargs;
}

/** At most 2000 characters: two thirds from the head, the rest from the tail. */
export function resultBrief(text: string): string {
  const cleaned = text.trim();
  if (cleaned.length <= BRIEF_MAX_CHARS) return cleaned;
  const head = Math.floor((BRIEF_MAX_CHARS * 2) / 3);
  const tail = BRIEF_MAX_CHARS - head - BRIEF_GAP.length;
  return `${cleaned.slice(0, head)}${BRIEF_GAP}${cleaned.slice(-tail)}`;
}
