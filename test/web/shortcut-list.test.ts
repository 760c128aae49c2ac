/** Which key press is which workspace shortcut, and how the palette filters its commands. */
import { describe, expect, it } from "vitest";
import {
  filterCommands,
  type PaletteCommand,
} from "../../web/src/command-palette/palette-command.js";
import {
  chordKeys,
  type KeyPress,
  type ShortcutId,
  shortcutFor,
} from "../../web/src/shortcuts/shortcut-list.js";

function press(key: string, mods: Partial<KeyPress> = {}): KeyPress {
  return {
    key,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  };
}

describe("shortcutFor", () => {
  it("reads Ctrl chords off macOS and ⌘ chords on it", () => {
    const cases: [KeyPress, boolean, ShortcutId | null][] = [
      [press("k", { ctrlKey: true }), false, "palette"],
      [press("K", { ctrlKey: true }), false, "palette"],
      [press("k", { metaKey: true }), true, "palette"],
      [press("k", { metaKey: true }), false, null],
      [press("k", { ctrlKey: true }), true, null],
      [press("N", { ctrlKey: true, shiftKey: true }), false, "newChat"],
      [press("O", { ctrlKey: true, shiftKey: true }), false, "newChat"],
      [press("n", { ctrlKey: true }), false, null],
      [press("b", { ctrlKey: true }), false, "toggleSidebar"],
      [press(",", { ctrlKey: true }), false, "settings"],
      [press("/", { ctrlKey: true }), false, "help"],
      [press("?", { shiftKey: true }), false, "help"],
      [press("/"), false, "focusComposer"],
      [press("k", { ctrlKey: true, altKey: true }), false, null],
      [press("x"), false, null],
    ];
    for (const [event, mac, expected] of cases)
      expect(shortcutFor(event, { typing: false, mac })).toBe(expected);
  });

  it("keeps single keys for the text while typing; chords still work", () => {
    const typing = { typing: true, mac: false };
    expect(shortcutFor(press("/"), typing)).toBeNull();
    expect(shortcutFor(press("?", { shiftKey: true }), typing)).toBeNull();
    expect(shortcutFor(press("k", { ctrlKey: true }), typing)).toBe("palette");
  });

  it("shows chords as keycaps for the platform", () => {
    expect(chordKeys({ key: "k", mod: true, shift: false }, false)).toEqual(["Ctrl", "K"]);
    expect(chordKeys({ key: "n", mod: true, shift: true }, true)).toEqual(["⌘", "⇧", "N"]);
  });
});

describe("filterCommands", () => {
  const run = (): void => undefined;
  const commands: PaletteCommand[] = [
    { id: "new", label: "New chat", group: "Actions", run },
    { id: "settings", label: "设置", group: "前往", keywords: "settings", run },
    ...Array.from({ length: 12 }, (_, index) => ({
      id: `chat-${index}`,
      label: `Trip plan ${index}`,
      group: "Chats",
      run,
    })),
  ];

  it("lists every action but only the first chats when nothing is typed", () => {
    const shown = filterCommands(commands, "  ", "Chats");
    expect(shown.filter((command) => command.group === "Chats")).toHaveLength(8);
    expect(shown[0]?.id).toBe("new");
  });

  it("keeps the commands holding every typed word, in label, group or keywords", () => {
    expect(filterCommands(commands, "SETTINGS", "Chats").map((c) => c.id)).toEqual(["settings"]);
    expect(filterCommands(commands, "plan 11", "Chats").map((c) => c.id)).toEqual(["chat-11"]);
    expect(filterCommands(commands, "chats trip", "Chats")).toHaveLength(12);
    expect(filterCommands(commands, "nothing like this", "Chats")).toEqual([]);
  });
});
