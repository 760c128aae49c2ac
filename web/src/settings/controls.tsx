import { type ReactNode, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { settingsMessages } from "../i18n/messages/settings.js";

/** A change's outcome under the control that made it: the error sentence, or a short note. */
export function Feedback({
  error,
  note,
}: {
  error: string | null;
  note?: string | null;
}): ReactNode {
  if (error) {
    return (
      <p className="error settings-feedback" role="alert">
        {error}
      </p>
    );
  }
  if (note) {
    return (
      <p className="settings-note settings-feedback" role="status">
        {note}
      </p>
    );
  }
  return null;
}

/** An on/off switch with a visible or screen-reader-only label. */
export function Switch(props: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}): ReactNode {
  return (
    <label className="settings-switch">
      <input
        type="checkbox"
        role="switch"
        aria-checked={props.checked}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      <span className="settings-sr-only">{props.label}</span>
    </label>
  );
}

/** A button that asks "…? This cannot be undone." with Yes / No before it acts. */
export function ConfirmButton(props: {
  label: string;
  /** What the question names, e.g. "Delete the fact". */
  action: string;
  disabled?: boolean;
  onConfirm: () => void;
}): ReactNode {
  const t = useT(settingsMessages);
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="danger small"
        disabled={props.disabled}
        onClick={() => setAsking(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape answers No, as in the chat list.
    <span
      className="settings-confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") setAsking(false);
      }}
    >
      <span>{t("reallyDo", { action: props.action })}</span>
      <button
        type="button"
        className="danger small"
        // biome-ignore lint/a11y/noAutofocus: the question just appeared; its answer is next.
        autoFocus
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {t("yes")}
      </button>
      <button type="button" className="small" onClick={() => setAsking(false)}>
        {t("no")}
      </button>
    </span>
  );
}

/** The loading line or the error (with Try again) of a panel that has not loaded. */
export function LoadState(props: {
  failed: { message: string } | null;
  onRetry: () => void;
}): ReactNode {
  const t = useT(settingsMessages);
  if (props.failed === null) return <p className="muted">{t("loading")}</p>;
  return (
    <div className="settings-load-failed">
      <p className="error" role="alert">
        {props.failed.message}
      </p>
      <button type="button" onClick={props.onRetry}>
        {t("retry")}
      </button>
    </div>
  );
}
