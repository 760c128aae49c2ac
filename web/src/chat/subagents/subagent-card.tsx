import type { ReactNode } from "react";
import { useT } from "../../i18n/locale-context.js";
import { chatActivityMessages } from "../../i18n/messages/chat-activity.js";
import { MarkdownView } from "../../markdown/markdown-view.js";
import type { Step } from "../message-groups.js";
import { RememberedDetails } from "../remembered-details.js";
import { formatElapsed, useNow } from "../usage/elapsed.js";
import { type SubagentProgress, type SubagentState, stateFromStatus } from "./subagent-progress.js";
import "./subagents.css";

type ToolStep = Extract<Step, { kind: "tool" }>;

const STATE_KEYS = {
  running: "subagentRunning",
  done: "subagentDone",
  failed: "subagentFailed",
  cancelled: "subagentCancelled",
  timed_out: "subagentTimedOut",
} as const satisfies Record<SubagentState, keyof typeof chatActivityMessages.en>;

const STATE_MARK: Record<SubagentState, string> = {
  running: "…",
  done: "✓",
  failed: "✗",
  cancelled: "–",
  timed_out: "⧗",
};

/**
 * The card's state: the live stream's word first, then the `task` ToolMessage's status; a call
 * with no answer is running while its block is live and was cut off (cancelled) otherwise.
 */
export function subagentState(
  step: ToolStep,
  progress: SubagentProgress | undefined,
  live: boolean,
): SubagentState {
  const told = stateFromStatus(step.kwargs?.subagent_status);
  if (told) return told;
  if (progress && progress.state !== "running") return progress.state;
  if (step.result !== undefined) return step.failed ? "failed" : "done";
  return live ? "running" : "cancelled";
}

function argText(args: Record<string, unknown>, key: string): string | null {
  const value = args[key];
  return typeof value === "string" && value.trim() ? value : null;
}

/** The final report: the brief the tool kept, else the ToolMessage's text, else the stream's. */
function resultText(step: ToolStep, progress: SubagentProgress | undefined): string | null {
  const brief = step.kwargs?.subagent_result_brief;
  if (typeof brief === "string" && brief.trim()) return brief;
  return progress?.result ?? step.result ?? null;
}

function errorText(step: ToolStep, progress: SubagentProgress | undefined): string | null {
  const error = step.kwargs?.subagent_error;
  if (typeof error === "string" && error.trim()) return error;
  return progress?.error ?? null;
}

/** One sub-agent the lead agent delegated to: what it does, its state and time, its report. */
export function SubagentCard({
  step,
  progress,
  live,
}: {
  step: ToolStep;
  progress: SubagentProgress | undefined;
  live: boolean;
}): ReactNode {
  const t = useT(chatActivityMessages);
  const state = subagentState(step, progress, live);
  const now = useNow(state === "running");
  const description = argText(step.args, "description") ?? progress?.description ?? t("subagent");
  const type = argText(step.args, "subagent_type");
  const started = progress?.startedAt ?? null;
  const ended = progress?.endedAt ?? null;
  const elapsed =
    started === null
      ? null
      : formatElapsed((ended ?? (state === "running" ? now : started)) - started);
  const result = resultText(step, progress);
  const error = errorText(step, progress);
  const steps = progress?.steps ?? [];
  return (
    <RememberedDetails
      memoryKey={`subagent:${step.id}`}
      className={`subagent-card ${state}`}
      data-testid="subagent-card"
      data-state={state}
    >
      <summary>
        <span className="subagent-mark" aria-hidden="true">
          {STATE_MARK[state]}
        </span>
        <span className="subagent-description">{description}</span>
        {type && <span className="subagent-type">{type}</span>}
        <span className={`subagent-state ${state}`}>{t(STATE_KEYS[state])}</span>
        {elapsed && (
          <span className="subagent-elapsed" data-testid="subagent-elapsed">
            {elapsed}
          </span>
        )}
      </summary>
      <div className="subagent-body">
        {steps.length > 0 && (
          <>
            <div className="tool-section">{t("subagentSteps")}</div>
            <ol className="subagent-steps">
              {steps.map((line, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: steps only ever grow at the end
                <li key={index} className="plain">
                  {line}
                </li>
              ))}
            </ol>
          </>
        )}
        {error && (
          <>
            <div className="tool-section">{t("subagentError")}</div>
            <div className="plain subagent-error">{error}</div>
          </>
        )}
        <div className="tool-section">{t("subagentResult")}</div>
        {result ? (
          <MarkdownView text={result} />
        ) : (
          <p className="muted small">{t("subagentNoResult")}</p>
        )}
      </div>
    </RememberedDetails>
  );
}
