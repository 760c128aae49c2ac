import { type ReactNode, useEffect, useRef } from "react";
import "./shortcuts.css";

interface Props {
  label: string;
  className?: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal `<dialog>` (`showModal`): the browser keeps focus and the screen reader inside it and
 * makes the page behind it inert; Escape and a click on the backdrop close it; on close the focus
 * goes back to what had it before.
 */
export function ModalDialog({ label, className, onClose, children }: Props): ReactNode {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    return () => {
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={label}
      className={className ? `modal ${className}` : "modal"}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        // The dialog itself is hit only on its backdrop: its content fills the box.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="modal-body">{children}</div>
    </dialog>
  );
}
