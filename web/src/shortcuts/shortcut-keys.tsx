import { Fragment, type ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { shortcutMessages } from "../i18n/messages/shortcuts.js";
import { chordKeys, chordsOf, type KeyChord, type ShortcutId } from "./shortcut-list.js";
import { isMacPlatform } from "./shortcut-platform.js";

/** One chord as keycaps: <kbd>Ctrl</kbd>+<kbd>K</kbd>. */
export function ChordKeys({ chord }: { chord: KeyChord }): ReactNode {
  return (
    <span className="chord">
      {chordKeys(chord, isMacPlatform()).map((key, index) => (
        <Fragment key={key}>
          {index > 0 && <span aria-hidden="true">+</span>}
          <kbd>{key}</kbd>
        </Fragment>
      ))}
    </span>
  );
}

/** Every chord of a shortcut, "or" between them (`firstOnly`: its main chord alone). */
export function ShortcutKeys({
  id,
  firstOnly = false,
}: {
  id: ShortcutId;
  firstOnly?: boolean;
}): ReactNode {
  const t = useT(shortcutMessages);
  const chords = firstOnly ? chordsOf(id).slice(0, 1) : chordsOf(id);
  return (
    <span className="shortcut-keys">
      {chords.map((chord, index) => (
        <Fragment key={chordKeys(chord, false).join("+")}>
          {index > 0 && <span className="muted"> {t("or")} </span>}
          <ChordKeys chord={chord} />
        </Fragment>
      ))}
    </span>
  );
}
