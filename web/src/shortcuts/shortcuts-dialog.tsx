import type { ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { commonMessages } from "../i18n/messages/common.js";
import { shortcutMessages } from "../i18n/messages/shortcuts.js";
import { ModalDialog } from "./modal-dialog.js";
import { ShortcutKeys } from "./shortcut-keys.js";
import { SHORTCUTS } from "./shortcut-list.js";

/** Key names are the same in every language, as printed on the keys. */
const ESCAPE_KEY = "Esc";

/** The list of shortcuts (`?`, ⌘/Ctrl+/ or the palette's "Keyboard shortcuts"). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }): ReactNode {
  const t = useT(shortcutMessages);
  const common = useT(commonMessages);
  return (
    <ModalDialog label={t("title")} className="shortcuts-dialog" onClose={onClose}>
      <div className="modal-head">
        <h2>{t("title")}</h2>
        <button type="button" className="small" onClick={onClose}>
          {common("close")}
        </button>
      </div>
      <p className="muted small">{t("intro")}</p>
      <table className="shortcut-table">
        <thead>
          <tr>
            <th scope="col">{t("action")}</th>
            <th scope="col">{t("keys")}</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.id}>
              <td>{t(shortcut.id)}</td>
              <td>
                <ShortcutKeys id={shortcut.id} />
              </td>
            </tr>
          ))}
          <tr>
            <td>{t("escape")}</td>
            <td>
              <kbd>{ESCAPE_KEY}</kbd>
            </td>
          </tr>
        </tbody>
      </table>
    </ModalDialog>
  );
}
