/**
 * The workspace's keyboard shortcuts as data (after the reference's: ⌘/Ctrl+K palette,
 * ⌘/Ctrl+Shift+N new chat, ⌘/Ctrl+B sidebar, ⌘/Ctrl+, settings, ⌘/Ctrl+/ this list). Chords with the
 * modifier work everywhere, even while typing; single keys only outside text fields, so they
 * never eat a typed character.
 */
export type ShortcutId =
  | "palette"
  | "newChat"
  | "toggleSidebar"
  | "settings"
  | "help"
  | "focusComposer";

export interface KeyChord {
  /** `KeyboardEvent.key`, lower case. */
  key: string;
  /** ⌘ on macOS, Ctrl elsewhere. */
  mod: boolean;
  shift: boolean;
}

export interface Shortcut {
  id: ShortcutId;
  chords: readonly KeyChord[];
}

const chord = (key: string, mod = true, shift = false): KeyChord => ({ key, mod, shift });

export const SHORTCUTS: readonly Shortcut[] = [
  { id: "palette", chords: [chord("k")] },
  // Chromium keeps Ctrl+Shift+N for itself (incognito), so Ctrl+Shift+O works there too.
  { id: "newChat", chords: [chord("n", true, true), chord("o", true, true)] },
  { id: "toggleSidebar", chords: [chord("b")] },
  { id: "settings", chords: [chord(",")] },
  { id: "help", chords: [chord("/"), chord("?", false)] },
  { id: "focusComposer", chords: [chord("/", false)] },
];

/** The parts of a `KeyboardEvent` a shortcut is read from. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

function matches(event: KeyPress, keys: KeyChord, mac: boolean): boolean {
  if (event.key.toLowerCase() !== keys.key || event.altKey) return false;
  const mod = mac ? event.metaKey : event.ctrlKey;
  const otherMod = mac ? event.ctrlKey : event.metaKey;
  if (mod !== keys.mod || otherMod) return false;
  // "?" needs Shift on most layouts; for other single keys Shift changes the key itself.
  if (keys.key === "?") return true;
  return event.shiftKey === keys.shift;
}

/**
 * The shortcut a key press means, or null; `typing`: the focus is in a text field, `mac`: ⌘ is
 * the modifier.
 */
export function shortcutFor(
  event: KeyPress,
  { typing, mac }: { typing: boolean; mac: boolean },
): ShortcutId | null {
  for (const shortcut of SHORTCUTS) {
    for (const keys of shortcut.chords) {
      if (!keys.mod && typing) continue;
      if (matches(event, keys, mac)) return shortcut.id;
    }
  }
  return null;
}

/** The keys of a chord as shown to the user: `["Ctrl", "K"]` or `["⌘", "K"]`. */
export function chordKeys(keys: KeyChord, mac: boolean): string[] {
  const shown: string[] = [];
  if (keys.mod) shown.push(mac ? "⌘" : "Ctrl");
  if (keys.shift) shown.push(mac ? "⇧" : "Shift");
  shown.push(keys.key.length === 1 ? keys.key.toUpperCase() : keys.key);
  return shown;
}

export function chordsOf(id: ShortcutId): readonly KeyChord[] {
  return SHORTCUTS.find((shortcut) => shortcut.id === id)?.chords ?? [];
}
