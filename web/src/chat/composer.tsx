import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from "react";
import type { ModelInfo } from "../api/types.js";
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
  busy: boolean;
  onSend: (text: string, files: File[]) => Promise<void>;
  onStop: () => void;
  restored?: Draft | null;
  /** Set: the chat cannot take messages (e.g. it was deleted); the box says why. */
  disabledReason?: string | null;
}

/** Message box: Enter sends (Shift+Enter: new line), attachments, model picker, Stop while running. */
export function Composer({
  models,
  model,
  onModelChange,
  planMode,
  onPlanModeChange,
  busy,
  onSend,
  onStop,
  restored = null,
  disabledReason = null,
}: Props): ReactNode {
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  // Enter while a run is going: say why nothing was sent (the draft stays in the box).
  const [busyHint, setBusyHint] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!restored) return;
    setText(restored.text);
    setFiles(restored.files);
  }, [restored]);

  const disabled = disabledReason !== null;
  const canSend = !disabled && !busy && !sending && (text.trim() !== "" || files.length > 0);

  const submit = async (event?: FormEvent): Promise<void> => {
    event?.preventDefault();
    if (busy && text.trim() !== "") setBusyHint(true);
    if (!canSend) return;
    setBusyHint(false);
    setSending(true);
    const message = text.trim() || "Please look at the attached files.";
    const attached = files;
    setText("");
    setFiles([]);
    try {
      await onSend(message, attached);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form className="composer" onSubmit={(event) => void submit(event)}>
      {files.length > 0 && (
        <ul className="file-chips">
          {files.map((file) => (
            <li key={file.name} className="chip">
              {file.name}
              <button
                type="button"
                className="icon small"
                aria-label={`Remove ${file.name}`}
                onClick={() => setFiles(files.filter((f) => f !== file))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {busyHint && busy && (
        <p className="composer-hint" role="status">
          A run is in progress: wait for it to finish or press Stop, then send.
        </p>
      )}
      <textarea
        name="message"
        aria-label="Message"
        placeholder={disabledReason ?? (sending ? "Uploading…" : "Message Fawn…")}
        disabled={disabled}
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-bar">
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="file-input"
          onChange={(event) => {
            const chosen = Array.from(event.target.files ?? []);
            setFiles((current) => [
              ...current.filter((f) => !chosen.some((c) => c.name === f.name)),
              ...chosen,
            ]);
            event.target.value = "";
          }}
        />
        <button
          type="button"
          onClick={() => fileInput.current?.click()}
          disabled={busy || disabled}
        >
          Attach
        </button>
        <select
          aria-label="Model"
          value={model ?? ""}
          onChange={(event) => onModelChange(event.target.value)}
        >
          {models.map((m) => (
            <option key={m.name} value={m.name}>
              {modelLabel(m)}
            </option>
          ))}
        </select>
        <label className="toggle" title="The agent plans with a to-do list first">
          <input
            type="checkbox"
            checked={planMode}
            onChange={(event) => onPlanModeChange(event.target.checked)}
          />
          Plan
        </label>
        <span className="spacer" />
        {/* Distinct keys: React must not turn the clicked Stop button into the submit button
            before the click's default action runs (that submitted the draft). */}
        {busy ? (
          <button key="stop" type="button" className="danger" onClick={onStop}>
            Stop
          </button>
        ) : (
          <button key="send" type="submit" className="primary" disabled={!canSend}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
