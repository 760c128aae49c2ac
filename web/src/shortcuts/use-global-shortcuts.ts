import { useEffect, useRef } from "react";
import { type ShortcutId, shortcutFor } from "./shortcut-list.js";
import { isMacPlatform, isTextField } from "./shortcut-platform.js";

export type ShortcutHandlers = Partial<Record<ShortcutId, () => void>>;

/**
 * Runs the handler of each shortcut pressed anywhere in the page. While `paused` (a dialog is
 * open) only the palette's chord still works, so it can close the palette it opened.
 */
export function useGlobalShortcuts(handlers: ShortcutHandlers, paused: boolean): void {
  const current = useRef({ handlers, paused });
  current.current = { handlers, paused };
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return;
      const id = shortcutFor(event, { typing: isTextField(event.target), mac: isMacPlatform() });
      if (id === null) return;
      if (current.current.paused && id !== "palette") return;
      const handler = current.current.handlers[id];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
