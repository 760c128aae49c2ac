import type { ShortcutId } from "../shortcuts/shortcut-list.js";

/** One action of the palette: what it says, where it belongs, what it does. */
export interface PaletteCommand {
  id: string;
  label: string;
  group: string;
  /** Extra words it is found by (e.g. the English name of a page while the page reads Chinese). */
  keywords?: string;
  shortcut?: ShortcutId;
  run: () => void;
}

/** How many chats the palette lists before anything is typed. */
const RECENT_CHATS_SHOWN = 8;

/**
 * The commands whose label, group or keywords contain every word of `query` (case-insensitive),
 * in their given order; with no query, all commands but only the first few chats.
 */
export function filterCommands(
  commands: readonly PaletteCommand[],
  query: string,
  chatGroup: string,
): PaletteCommand[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) {
    let chats = 0;
    return commands.filter(
      (command) => command.group !== chatGroup || chats++ < RECENT_CHATS_SHOWN,
    );
  }
  return commands.filter((command) => {
    const haystack = `${command.label} ${command.group} ${command.keywords ?? ""}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
