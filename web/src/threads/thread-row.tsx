import { type ReactNode, useEffect, useRef, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { threadsMessages } from "../i18n/messages/threads.js";
import type { ThreadSummary } from "./thread-summary.js";

interface Props {
  thread: ThreadSummary;
  active: boolean;
  onOpen: () => void;
  onTogglePin: () => void;
  /** Resolves once the new title is stored (or the rename failed and said so). */
  onRename: (title: string) => Promise<void>;
  onDelete: () => void;
}

/** One chat in the list: open, pin, rename in place, delete (a second, focused click). */
export function ThreadRow({
  thread,
  active,
  onOpen,
  onTogglePin,
  onRename,
  onDelete,
}: Props): ReactNode {
  const t = useT(threadsMessages);
  const [confirming, setConfirming] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const title = thread.title ?? t("untitled");
  const renameButton = useRef<HTMLButtonElement>(null);

  const finishRename = (next: string | null): void => {
    setRenaming(false);
    // Focus goes back where the rename started, for keyboard users.
    requestAnimationFrame(() => renameButton.current?.focus());
    const trimmed = next?.trim() ?? "";
    if (trimmed && trimmed !== thread.title) void onRename(trimmed);
  };

  return (
    <li className={active ? "thread active" : "thread"}>
      {renaming ? (
        <RenameField
          label={t("renameField", { title })}
          initial={thread.title ?? ""}
          onDone={finishRename}
        />
      ) : (
        <button
          type="button"
          className="thread-open"
          data-thread-id={thread.threadId}
          title={new Date(thread.updatedAt).toLocaleString()}
          onClick={onOpen}
          onDoubleClick={() => setRenaming(true)}
        >
          <span className="thread-title">{title}</span>
          {thread.status === "busy" && <span className="badge">{t("running")}</span>}
        </button>
      )}
      <button
        type="button"
        className="icon small pin-toggle"
        aria-label={t(thread.pinned ? "unpin" : "pin", { title })}
        aria-pressed={thread.pinned}
        onClick={onTogglePin}
      >
        {thread.pinned ? "★" : "☆"}
      </button>
      {!renaming && (
        <button
          ref={renameButton}
          type="button"
          className="icon small rename-toggle"
          aria-label={t("rename", { title })}
          onClick={() => setRenaming(true)}
        >
          ✎
        </button>
      )}
      {confirming ? (
        <ConfirmDelete
          label={t("deleteConfirm")}
          onConfirm={() => {
            setConfirming(false);
            onDelete();
          }}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <button
          type="button"
          className="icon small"
          aria-label={t("delete", { title })}
          onClick={() => setConfirming(true)}
        >
          ×
        </button>
      )}
    </li>
  );
}

/** The title as an input: Enter or leaving it saves, Escape keeps the old name. */
function RenameField({
  label,
  initial,
  onDone,
}: {
  label: string;
  initial: string;
  onDone: (title: string | null) => void;
}): ReactNode {
  const [value, setValue] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  // Escape and Enter end the edit before the blur that follows them; it must not save twice.
  const done = useRef(false);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const finish = (title: string | null): void => {
    if (done.current) return;
    done.current = true;
    onDone(title);
  };
  return (
    <input
      ref={input}
      className="thread-rename"
      aria-label={label}
      value={value}
      maxLength={256}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === "Enter" && !event.nativeEvent.isComposing) {
          event.preventDefault();
          finish(value);
        } else if (event.key === "Escape") {
          event.stopPropagation();
          finish(null);
        }
      }}
      onBlur={() => finish(value)}
    />
  );
}

/** The second step of a delete: focused, so Escape (or moving away) cancels it. */
function ConfirmDelete({
  label,
  onConfirm,
  onCancel,
}: {
  label: string;
  onConfirm: () => void;
  onCancel: () => void;
}): ReactNode {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <button
      ref={button}
      type="button"
      className="danger small"
      onClick={onConfirm}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onCancel();
        }
      }}
      onBlur={onCancel}
    >
      {label}
    </button>
  );
}
