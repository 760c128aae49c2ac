import {
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from "react";
import type { ModelInfo } from "../api/types.js";
import { useT } from "../i18n/locale-context.js";
import { composerMessages } from "../i18n/messages/composer.js";
import { uploadsMessages } from "../i18n/messages/uploads.js";
import {
  type AttachProblem,
  attachWithinLimits,
  formatBytes,
  namePastedFile,
} from "../uploads/attach-files.js";
import { AttachmentChips, DropOverlay, type FileProgress } from "../uploads/attachment-chips.js";
import type { UploadControl } from "../uploads/upload-file.js";
import { loadUploadLimits, type UploadLimits } from "../uploads/upload-limits.js";
import { useFileDrop } from "../uploads/use-file-drop.js";
import { modelLabel } from "./model-label.js";

/** A message put back in the box (its send failed); `key` changes each time. */
export interface Draft {
  text: string;
  files: File[];
  key: number;
}

interface Props {
  models: ModelInfo[];
  /** The model runs use (owned by the chat, so a clarification answer uses it too). */
  model: string | null;
  onModelChange: (name: string) => void;
  planMode: boolean;
  onPlanModeChange: (on: boolean) => void;
  /** Whether runs may delegate to sub-agents (the `task` tool). */
  subagents: boolean;
  onSubagentsChange: (on: boolean) => void;
  busy: boolean;
  /** Uploads `files` (reporting progress through `upload`), then starts the run. */
  onSend: (text: string, files: File[], upload: UploadControl) => Promise<void>;
  onStop: () => void;
  restored?: Draft | null;
  /** Set: the chat cannot take messages (e.g. it was deleted); the box says why. */
  disabledReason?: string | null;
}

/**
 * Message box: Enter sends (Shift+Enter: new line), files from Attach, a drop anywhere on the
 * page or a paste (checked against the server's upload limits), per-file upload progress with
 * Cancel, model picker, Stop while running.
 */
export function Composer({
  models,
  model,
  onModelChange,
  planMode,
  onPlanModeChange,
  subagents,
  onSubagentsChange,
  busy,
  onSend,
  onStop,
  restored = null,
  disabledReason = null,
}: Props): ReactNode {
  const t = useT(composerMessages);
  const tu = useT(uploadsMessages);
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  // The files of the message being sent and how far each has uploaded.
  const [uploading, setUploading] = useState<{ files: File[]; progress: FileProgress[] } | null>(
    null,
  );
  const [problems, setProblems] = useState<AttachProblem[]>([]);
  const [limits, setLimits] = useState<UploadLimits | null>(null);
  // Enter while a run is going: say why nothing was sent (the draft stays in the box).
  const [busyHint, setBusyHint] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const cancelUpload = useRef<AbortController | null>(null);
  // The files as of the latest render, for checks that finish after an await.
  const attachedNow = useRef<File[]>(files);
  attachedNow.current = files;

  useEffect(() => {
    void loadUploadLimits().then(setLimits);
  }, []);

  useEffect(() => {
    if (!restored) return;
    setText(restored.text);
    setFiles(restored.files);
  }, [restored]);

  const disabled = disabledReason !== null;
  const canAttach = !disabled && !busy && !sending;
  const canSend = !disabled && !busy && !sending && (text.trim() !== "" || files.length > 0);

  /** `pasted`: clipboard files, whose generic names (`image.png`) are made unique first. */
  const attach = (adding: File[], pasted = false): void => {
    if (!canAttach || adding.length === 0) return;
    // Files attached before the limits arrived wait for them (the check needs them).
    void (limits ? Promise.resolve(limits) : loadUploadLimits()).then((known) => {
      const named: File[] = [];
      for (const file of adding) {
        const taken = [...attachedNow.current, ...named].map((f) => f.name);
        named.push(pasted ? namePastedFile(file, taken) : file);
      }
      const result = attachWithinLimits(attachedNow.current, named, known);
      attachedNow.current = result.files;
      setFiles(result.files);
      setProblems(result.problems);
    });
  };
  const dragging = useFileDrop(attach, canAttach);

  const submit = async (event?: FormEvent): Promise<void> => {
    event?.preventDefault();
    if (busy && text.trim() !== "") setBusyHint(true);
    if (!canSend) return;
    setBusyHint(false);
    setProblems([]);
    setSending(true);
    const message = text.trim() || t("filesOnly");
    const attached = files;
    const abort = new AbortController();
    cancelUpload.current = abort;
    if (attached.length > 0) {
      setUploading({
        files: attached,
        progress: attached.map((f) => ({ loaded: 0, total: f.size })),
      });
    }
    setText("");
    setFiles([]);
    try {
      await onSend(message, attached, {
        signal: abort.signal,
        cancelledText: tu("cancelled"),
        onProgress: (index, loaded, total) =>
          setUploading((current) =>
            current
              ? {
                  ...current,
                  progress: current.progress.map((entry, at) =>
                    at === index ? { loaded, total } : entry,
                  ),
                }
              : current,
          ),
      });
    } finally {
      cancelUpload.current = null;
      setUploading(null);
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  // Files on the clipboard (a copied file, a screenshot) are attached; text pastes as usual.
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const pasted = Array.from(event.clipboardData.files);
    if (pasted.length === 0) return;
    event.preventDefault();
    attach(pasted, true);
  };

  return (
    <form className="composer" onSubmit={(event) => void submit(event)}>
      {dragging && <DropOverlay />}
      {uploading ? (
        <div className="upload-status">
          <AttachmentChips files={uploading.files} progress={uploading.progress} onRemove={null} />
          <button type="button" className="small" onClick={() => cancelUpload.current?.abort()}>
            {tu("cancel")}
          </button>
        </div>
      ) : (
        <AttachmentChips
          files={files}
          progress={null}
          onRemove={(file) => setFiles(files.filter((f) => f !== file))}
        />
      )}
      {problems.length > 0 && (
        <div className="upload-problems" role="alert">
          <ul>
            {problems.map((problem) => (
              <li key={`${problem.kind}-${"name" in problem ? problem.name : ""}`}>
                {problemText(problem)}
              </li>
            ))}
          </ul>
          <button type="button" className="link-button" onClick={() => setProblems([])}>
            {tu("dismiss")}
          </button>
        </div>
      )}
      {busyHint && busy && (
        <p className="composer-hint" role="status">
          {t("busyHint")}
        </p>
      )}
      <textarea
        name="message"
        aria-label={t("message")}
        placeholder={disabledReason ?? (sending ? t("uploading") : t("placeholder"))}
        disabled={disabled}
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      <div className="composer-bar">
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="file-input"
          onChange={(event) => {
            attach(Array.from(event.target.files ?? []));
            event.target.value = "";
          }}
        />
        <button type="button" onClick={() => fileInput.current?.click()} disabled={!canAttach}>
          {t("attach")}
        </button>
        <select
          aria-label={t("model")}
          value={model ?? ""}
          onChange={(event) => onModelChange(event.target.value)}
        >
          {models.map((m) => (
            <option key={m.name} value={m.name}>
              {modelLabel(m)}
            </option>
          ))}
        </select>
        <label className="toggle" title={t("planHint")}>
          <input
            type="checkbox"
            checked={planMode}
            onChange={(event) => onPlanModeChange(event.target.checked)}
          />
          {t("plan")}
        </label>
        <label className="toggle" title={t("subagentsHint")}>
          <input
            type="checkbox"
            checked={subagents}
            onChange={(event) => onSubagentsChange(event.target.checked)}
          />
          {t("subagents")}
        </label>
        <span className="spacer" />
        {/* Distinct keys: React must not turn the clicked Stop button into the submit button
            before the click's default action runs (that submitted the draft). */}
        {busy ? (
          <button key="stop" type="button" className="danger" onClick={onStop}>
            {t("stop")}
          </button>
        ) : (
          <button key="send" type="submit" className="primary" disabled={!canSend}>
            {t("send")}
          </button>
        )}
      </div>
    </form>
  );

  function problemText(problem: AttachProblem): string {
    switch (problem.kind) {
      case "too_many":
        return tu("tooMany", { max: problem.max });
      case "too_large":
        return tu("tooLarge", { name: problem.name, max: formatBytes(problem.max) });
      case "total_too_large":
        return tu("totalTooLarge", { max: formatBytes(problem.max) });
    }
  }
}
