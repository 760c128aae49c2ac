import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { chatMessages } from "../i18n/messages/chat.js";
import { MarkdownView } from "../markdown/markdown-view.js";
import type { FollowLatest } from "./follow-latest.js";
import type { MessageGroup } from "./message-groups.js";
import { DisclosureMemoryProvider, RememberedDetails } from "./remembered-details.js";
import { StepsBlock } from "./steps-block.js";
import type { SubagentProgressMap } from "./subagents/subagent-progress.js";
import { TurnDuration } from "./usage/turn-duration.js";
import type { TurnTime } from "./usage/turn-durations.js";
import "./message-list.css";

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
  follow: FollowLatest;
  subagents: SubagentProgressMap;
  /** Each turn's duration, keyed by the index of the turn's last group. */
  turnTimes: ReadonlyMap<number, TurnTime>;
}

/** A first guess of a row's height (px) before it is measured. */
const ESTIMATED_ROW = 120;

/**
 * The conversation as a virtual list: only the rows near the viewport are in the DOM (a
 * 500-message thread stays light), each measured once drawn. While pinned to the bottom, every
 * change of the list's height (a streamed token, a new row, a measurement) scrolls it back down.
 */
export function MessageList(props: Props): ReactNode {
  const { groups, follow } = props;
  const list = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const view = follow.scrollRef.current;
    const top = list.current?.offsetTop ?? 0;
    if (view && top !== scrollMargin) setScrollMargin(top);
  });
  const virtualizer = useVirtualizer({
    count: groups.length,
    getScrollElement: () => follow.scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    overscan: 4,
    scrollMargin,
    getItemKey: (index) => groups[index]?.key ?? index,
  });
  const total = virtualizer.getTotalSize();
  const last = groups.at(-1);
  const lastLength = last && "text" in last ? last.text.length : 0;
  const { keepPinned } = follow;
  useLayoutEffect(() => {
    void total;
    void lastLength;
    keepPinned();
  }, [total, lastLength, keepPinned]);

  const items = virtualizer.getVirtualItems();
  return (
    <DisclosureMemoryProvider>
      <div
        ref={list}
        className="message-list"
        data-testid="message-list"
        data-count={groups.length}
        style={{ height: total }}
      >
        {items.map((item) => {
          const group = groups[item.index];
          if (!group) return null;
          return (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="message-row"
              style={{ transform: `translateY(${item.start - scrollMargin}px)` }}
            >
              <GroupView {...props} group={group} index={item.index} />
            </div>
          );
        })}
      </div>
    </DisclosureMemoryProvider>
  );
}

function GroupView({
  groups,
  group,
  index,
  streaming,
  awaitingAnswer,
  onAnswer,
  onRegenerate,
  onEditLast,
  onBranch,
  subagents,
  turnTimes,
}: Props & { group: MessageGroup; index: number }): ReactNode {
  const t = useT(chatMessages);
  const last = index === groups.length - 1;
  // Only the latest turn can be rerun: the server prepares that one alone.
  const lastHuman = groups.findLastIndex((entry) => entry.kind === "human");
  const lastAnswer = groups.findLastIndex((entry) => entry.kind === "assistant");
  const time = turnTimes.get(index);
  const duration = time ? <TurnDuration time={time} /> : null;
  switch (group.kind) {
    case "human":
      return (
        <div className="message human" data-role="user">
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
        <>
          <div className="message assistant" data-role="assistant">
            {group.reasoning.trim() && (
              <RememberedDetails className="reasoning" memoryKey={`${group.key}:reasoning`}>
                <summary>{t("reasoning")}</summary>
                <div className="plain">{group.reasoning}</div>
              </RememberedDetails>
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
                    title={t("branchTitle")}
                    onClick={() => group.messageId && onBranch(group.messageId)}
                  >
                    {t("branch")}
                  </button>
                )}
                {index === lastAnswer && !streaming && group.messageId && (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => group.messageId && onRegenerate(group.messageId)}
                  >
                    {t("regenerate")}
                  </button>
                )}
                {duration}
              </div>
            )}
          </div>
          {streaming && last && duration}
        </>
      );
    case "steps":
      return (
        <>
          <StepsBlock
            blockKey={group.key}
            steps={group.steps}
            live={streaming && last}
            subagents={subagents}
          />
          {duration}
        </>
      );
    case "clarification":
      return (
        <>
          <div className="clarification" role="note">
            <div className="clarification-label">{t("needsInput")}</div>
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
            {awaitingAnswer && last && <p className="muted small">{t("pickOrAnswer")}</p>}
          </div>
          {duration}
        </>
      );
  }
}

function CopyButton({ text }: { text: string }): ReactNode {
  const t = useT(chatMessages);
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
      {copied === "copied" ? t("copied") : copied === "failed" ? t("copyFailed") : t("copy")}
    </button>
  );
}

/** The latest user message, with Edit: change its text and rerun the turn from before it. */
function EditableText({ text, onRerun }: { text: string; onRerun: (text: string) => void }) {
  const t = useT(chatMessages);
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <>
        <div className="plain">{text}</div>
        <div className="message-actions">
          <button type="button" className="link-button" onClick={() => setDraft(text)}>
            {t("edit")}
          </button>
        </div>
      </>
    );
  }
  const changed = draft.trim() !== "" && draft.trim() !== text.trim();
  return (
    <div className="message-edit">
      <textarea
        aria-label={t("editLabel")}
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
          {t("rerun")}
        </button>
        <button type="button" className="small" onClick={() => setDraft(null)}>
          {t("cancel")}
        </button>
      </div>
    </div>
  );
}
