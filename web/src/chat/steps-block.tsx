import type { ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { chatMessages } from "../i18n/messages/chat.js";
import { MarkdownView } from "../markdown/markdown-view.js";
import { type Step, toolCallSummary } from "./message-groups.js";
import { RememberedDetails } from "./remembered-details.js";
import { SubagentCard } from "./subagents/subagent-card.js";
import type { SubagentProgressMap } from "./subagents/subagent-progress.js";

type ToolState = "running" | "unfinished" | "failed" | "done";

const STATE_MARK: Record<ToolState, string> = {
  running: "…",
  unfinished: "–",
  failed: "✗",
  done: "✓",
};

const STATE_KEYS = {
  running: "toolRunning",
  unfinished: "toolUnfinished",
  failed: "toolFailed",
  done: "toolDone",
} as const satisfies Record<ToolState, keyof typeof chatMessages.en>;

/** The lead agent's delegation tool: its calls show as sub-agent cards. */
const TASK_TOOL = "task";

/** Each argument on its own: text as written (a command's lines as lines), the rest as JSON. */
function ToolArguments({ args }: { args: Record<string, unknown> }): ReactNode {
  const t = useT(chatMessages);
  const entries = Object.entries(args);
  if (entries.length === 0) return <p className="muted small">{t("noArguments")}</p>;
  return (
    <dl className="tool-args">
      {entries.map(([name, value]) => (
        <div key={name} className="tool-arg">
          <dt>{name}</dt>
          <dd>
            <pre className="code-block">
              <code>{typeof value === "string" ? value : JSON.stringify(value, null, 2)}</code>
            </pre>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Reasoning, interim text and tool calls of one stretch of the agent's work. */
export function StepsBlock({
  blockKey,
  steps,
  live,
  subagents,
}: {
  /** The block's group key: its disclosures are remembered under it. */
  blockKey: string;
  steps: Step[];
  live: boolean;
  subagents: SubagentProgressMap;
}): ReactNode {
  const t = useT(chatMessages);
  const toolCount = steps.filter((step) => step.kind === "tool").length;
  return (
    <div className="steps" data-testid="steps">
      <div className="steps-label">
        {toolCount === 1 ? t("stepsOne") : t("stepsMany", { count: toolCount })}
        {live ? t("stepsWorking") : ""}
      </div>
      {steps.map((step, index) => {
        if (step.kind === "reasoning") {
          return (
            <RememberedDetails
              // biome-ignore lint/suspicious/noArrayIndexKey: steps are positional in their block
              key={index}
              className="reasoning"
              memoryKey={`${blockKey}:reasoning:${index}`}
            >
              <summary>{t("reasoning")}</summary>
              <div className="plain">{step.text}</div>
            </RememberedDetails>
          );
        }
        if (step.kind === "text") {
          // biome-ignore lint/suspicious/noArrayIndexKey: steps are positional in their block
          return <MarkdownView key={index} text={step.text} />;
        }
        if (step.name === TASK_TOOL) {
          return (
            <SubagentCard key={step.id} step={step} progress={subagents.get(step.id)} live={live} />
          );
        }
        // A call without a result in a block that is no longer live was cut off (Stop, a
        // failed or interrupted run): it must not look as if it were still running.
        const state: ToolState =
          step.result === undefined
            ? live
              ? "running"
              : "unfinished"
            : step.failed
              ? "failed"
              : "done";
        return (
          <RememberedDetails
            key={step.id}
            memoryKey={`tool:${step.id}`}
            className={`tool-step ${state}`}
            data-tool={step.name}
          >
            <summary>
              <span className="tool-state" role="img" aria-label={t(STATE_KEYS[state])}>
                {STATE_MARK[state]}
              </span>
              <span className="tool-name">{step.name}</span>
              <span className="tool-summary">{toolCallSummary(step.name, step.args)}</span>
            </summary>
            <div className="tool-detail">
              <div className="tool-section">{t("arguments")}</div>
              <ToolArguments args={step.args} />
              {step.result !== undefined && (
                <>
                  <div className="tool-section">{t("result")}</div>
                  <pre className="code-block tool-result">
                    <code>{step.result}</code>
                  </pre>
                </>
              )}
            </div>
          </RememberedDetails>
        );
      })}
    </div>
  );
}
