import { type KeyboardEvent, type ReactNode, useId, useMemo, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { paletteMessages } from "../i18n/messages/shortcuts.js";
import { ModalDialog } from "../shortcuts/modal-dialog.js";
import { ShortcutKeys } from "../shortcuts/shortcut-keys.js";
import { filterCommands, type PaletteCommand } from "./palette-command.js";
import "./command-palette.css";

interface Props {
  commands: readonly PaletteCommand[];
  onClose: () => void;
}

/**
 * ⌘/Ctrl+K: a search box over the workspace's actions and chats (an ARIA combobox with its
 * listbox). Typing filters, ↑/↓ (and Home/End) move the choice, Enter runs it, Escape closes.
 * The command runs after the dialog has closed and handed the focus back, so a command that
 * moves the focus (to the message box, to another page) keeps it.
 */
export function CommandPalette({ commands, onClose }: Props): ReactNode {
  const t = useT(paletteMessages);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const chatGroup = t("groupChats");
  const shown = useMemo(
    () => filterCommands(commands, query, chatGroup),
    [commands, query, chatGroup],
  );
  const current = Math.min(active, shown.length - 1);
  const optionId = (index: number): string => `${listId}-option-${index}`;

  const run = (command: PaletteCommand | undefined): void => {
    if (!command) return;
    onClose();
    setTimeout(command.run, 0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    const last = shown.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: current >= last ? 0 : current + 1,
      ArrowUp: current <= 0 ? last : current - 1,
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next !== undefined && shown.length > 0) {
      event.preventDefault();
      setActive(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: "nearest" });
    } else if (event.key === "Enter" && !event.nativeEvent.isComposing) {
      event.preventDefault();
      run(shown[current]);
    }
  };

  return (
    <ModalDialog label={t("title")} className="command-palette" onClose={onClose}>
      <input
        className="palette-search"
        role="combobox"
        aria-label={t("search")}
        placeholder={t("search")}
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={current >= 0 ? optionId(current) : undefined}
        value={query}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <div id={listId} className="palette-list" role="listbox" aria-label={t("results")}>
        {shown.map((command, index) => (
          <div
            key={command.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === current}
            className={index === current ? "palette-option active" : "palette-option"}
            onMouseMove={() => index !== current && setActive(index)}
            // Focus stays in the search box (aria-activedescendant); -1 only lets a click land.
            tabIndex={-1}
            onClick={() => run(command)}
            onKeyDown={(event) => event.key === "Enter" && run(command)}
          >
            <span className="palette-label">{command.label}</span>
            <span className="palette-group muted small">{command.group}</span>
            {command.shortcut && <ShortcutKeys id={command.shortcut} firstOnly />}
          </div>
        ))}
      </div>
      {shown.length === 0 && (
        <p className="palette-empty muted" role="status">
          {t("noMatch", { query })}
        </p>
      )}
      <p className="palette-hint muted small" aria-hidden="true">
        {t("hint")}
      </p>
    </ModalDialog>
  );
}
