import { type ReactNode, useState } from "react";
import { MarkdownView } from "../markdown/markdown-view.js";
import { type MessageGroup, type Step, toolCallSummary } from "./message-groups.js";

interface Props {
  groups: MessageGroup[];
  streaming: boolean;
  /** The last group is an open clarification question the user may answer. */
  awaitingAnswer: boolean;
  onAnswer: (answer: string) => void;
  /** Rerun the latest answer's turn (the answer's message id). */
  onRegenerate: (messageId: string) => void;
  /** Rerun the latest user message with new text. */
  onEditLast: (messageId: string, text: string) => void;
  /** Start a new chat from the conversation up to this answer. */
  onBranch: (messageId: string) => void;
}

export function MessageList({
  groups,
  streaming,
  awaitingAnswer,
  onAnswer,
  onRegenerate,
  onEditLast,
  onBranch,
}: Props): ReactNode {
  // Only the latest turn can be rerun: the server prepares that one alone.
  const lastHuman = groups.findLastIndex((group) => group.kind === "human");
  const lastAnswer = groups.findLastIndex((group) => group.kind === "assistant");
  return (
    <>
      {groups.map((group, index) => {
        const last = index === groups.length - 1;
        switch (group.kind) {
          case "human":
            return (
              <div key={group.key} className="message human" data-role="user">
                {group.files.length > 0 && (
                  <ul className="file-chips">
                    {group.files.map((file) => (
                      <li key={file.filename} className="chip">
                        {file.filename}
                      </li>
                    ))}
                  </ul>
                )}
                {/* User text is shown verbatim, never as Markdown. */}
                {index === lastHuman && !streaming && group.messageId ? (
                  <EditableText
                    text={group.text}
                    onRerun={(text) => group.messageId && onEditLast(group.messageId, text)}
                  />
                ) : (
                  <div className="plain">{group.text}</div>
                )}
              </div>
            );
          case "assistant":
            return (
              <div key={group.key} className="message assistant" data-role="assistant">
                {group.reasoning.trim() && (
                  <details className="reasoning">
                    <summary>Reasoning</summary>
                    <div className="plain">{group.reasoning}</div>
                  </details>
                )}
                <MarkdownView text={group.text} />
                {streaming && last && <span className="cursor" aria-hidden="true" />}
                {!(streaming && last) && (
                  <div className="message-actions">
                    <CopyButton text={group.text} />
                    {!streaming && group.messageId && (
                      <button
                        type="button"
                        className="link-button"
                        title="A new chat with the conversation up to this answer"
                        onClick={() => group.messageId && onBranch(group.messageId)}
                      >
                        Branch
                      </button>
                    )}
                    {index === lastAnswer && !streaming && group.messageId && (
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => group.messageId && onRegenerate(group.messageId)}
                      >
                        Regenerate
                      </button>
                    )}
                  </div>
                )}
              </div>
            );
          case "steps":
            return <StepsBlock key={group.key} steps={group.steps} live={streaming && last} />;
          case "clarification":
            return (
              <div key={group.key} className="clarification" role="note">
                <div className="clarification-label">Fawn needs your input</div>
                {group.context && <p className="muted">{group.context}</p>}
                <p className="question">{group.question}</p>
                {group.options.length > 0 && (
                  <div className="options">
                    {group.options.map((option) => (
                      <button
                        key={option.value}
                        type="button"
                        disabled={!(awaitingAnswer && last)}
                        onClick={() => onAnswer(option.value)}
                      >
                        {option.label}
                      </button>
                    ))}
                  </div>
                )}
                {awaitingAnswer && last && (
                  <p className="muted small">Pick an option or answer in the box below.</p>
                )}
              </div>
            );
        }
        return null;
      })}
    </>
  );
}

type ToolState = "running" | "unfinished" | "failed" | "done";

const STATE_MARK: Record<ToolState, string> = {
  running: "…",
  unfinished: "–",
  failed: "✗",
  done: "✓",
};

const STATE_LABEL: Record<ToolState, string> = {
  running: "running",
  unfinished: "did not finish",
  failed: "failed",
  done: "done",
};

/** Each argument on its own: text as written (a command's lines as lines), the rest as JSON. */
function ToolArguments({ args }: { args: Record<string, unknown> }): ReactNode {
  const entries = Object.entries(args);
  if (entries.length === 0) return <p className="muted small">none</p>;
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

function StepsBlock({ steps, live }: { steps: Step[]; live: boolean }): ReactNode {
  const toolCount = steps.filter((step) => step.kind === "tool").length;
  return (
    <div className="steps" data-testid="steps">
      <div className="steps-label">
        {toolCount} {toolCount === 1 ? "step" : "steps"}
        {live ? " · working…" : ""}
      </div>
      {steps.map((step, index) => {
        if (step.kind === "reasoning") {
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps are positional in their block
            <details key={index} className="reasoning">
              <summary>Reasoning</summary>
              <div className="plain">{step.text}</div>
            </details>
          );
        }
        if (step.kind === "text") {
          // biome-ignore lint/suspicious/noArrayIndexKey: steps are positional in their block
          return <MarkdownView key={index} text={step.text} />;
        }
        // A call without a result in a block that is no longer live was cut off (Stop, a
        // failed or interrupted run): it must not look as if it were still running.
        const state =
          step.result === undefined
            ? live
              ? "running"
              : "unfinished"
            : step.failed
              ? "failed"
              : "done";
        return (
          <details key={step.id} className={`tool-step ${state}`} data-tool={step.name}>
            <summary>
              <span className="tool-state" role="img" aria-label={STATE_LABEL[state]}>
                {STATE_MARK[state]}
              </span>
              <span className="tool-name">{step.name}</span>
              <span className="tool-summary">{toolCallSummary(step.name, step.args)}</span>
            </summary>
            <div className="tool-detail">
              <div className="tool-section">Arguments</div>
              <ToolArguments args={step.args} />
              {step.result !== undefined && (
                <>
                  <div className="tool-section">Result</div>
                  <pre className="code-block tool-result">
                    <code>{step.result}</code>
                  </pre>
                </>
              )}
            </div>
          </details>
        );
      })}
    </div>
  );
}

function CopyButton({ text }: { text: string }): ReactNode {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const copy = (): void => {
    navigator.clipboard
      .writeText(text)
      .then(() => setCopied("copied"))
      .catch(() => setCopied("failed"));
    setTimeout(() => setCopied("idle"), 2000);
  };
  return (
    <button type="button" className="link-button" onClick={copy}>
      {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
    </button>
  );
}

/** The latest user message, with Edit: change its text and rerun the turn from before it. */
function EditableText({ text, onRerun }: { text: string; onRerun: (text: string) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <>
        <div className="plain">{text}</div>
        <div className="message-actions">
          <button type="button" className="link-button" onClick={() => setDraft(text)}>
            Edit
          </button>
        </div>
      </>
    );
  }
  const changed = draft.trim() !== "" && draft.trim() !== text.trim();
  return (
    <div className="message-edit">
      <textarea
        aria-label="Edit your message"
        value={draft}
        rows={3}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") setDraft(null);
        }}
      />
      <div className="message-actions">
        <button
          type="button"
          className="primary small"
          disabled={!changed}
          onClick={() => {
            onRerun(draft.trim());
            setDraft(null);
          }}
        >
          Rerun
        </button>
        <button type="button" className="small" onClick={() => setDraft(null)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
