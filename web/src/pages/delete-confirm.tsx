import { type ReactNode, useEffect, useRef, useState } from "react";

interface Props {
  /** The question, naming the record (the group's legend). */
  question: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => Promise<void>;
  onCancel: () => void;
}

/**
 * The second step of a card's Delete. Cancel takes the focus, so a keyboard user's Enter or
 * Escape never deletes by accident; the confirm is disabled while the delete is under way.
 */
export function DeleteConfirm({
  question,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: Props): ReactNode {
  const [busy, setBusy] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <fieldset
      className="record-confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <legend>{question}</legend>
      <div className="record-actions">
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onConfirm().finally(() => setBusy(false));
          }}
        >
          {confirmLabel}
        </button>
        <button ref={cancel} type="button" onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </fieldset>
  );
}
