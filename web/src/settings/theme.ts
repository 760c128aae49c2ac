import { useSyncExternalStore } from "react";
import "./theme.css";

/**
 * The colour theme: `system` follows the browser's light/dark preference (the media query in
 * styles.css); `light` and `dark` pin it with `data-theme` on `<html>` (theme.css).
 */
export type ThemeChoice = "system" | "light" | "dark";

export const THEMES: readonly ThemeChoice[] = ["system", "light", "dark"];

const THEME_KEY = "fawn.theme";

function isTheme(value: string | null): value is ThemeChoice {
  return value !== null && (THEMES as readonly string[]).includes(value);
}

export function storedTheme(): ThemeChoice {
  try {
    const saved = window.localStorage.getItem(THEME_KEY);
    return isTheme(saved) ? saved : "system";
  } catch {
    return "system";
  }
}

export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
}

/** Call once at start-up, before the first render, so a saved theme never flashes. */
export function applyStoredTheme(): void {
  applyTheme(storedTheme());
}

// One theme for the page: every `useTheme()` caller (Settings, the command palette) sees a change.
let current: ThemeChoice | null = null;
const listeners = new Set<() => void>();

function currentTheme(): ThemeChoice {
  current ??= storedTheme();
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Saves the theme and applies it at once. */
export function setTheme(next: ThemeChoice): void {
  current = next;
  applyTheme(next);
  try {
    window.localStorage.setItem(THEME_KEY, next);
  } catch {
    // Not saved: the theme holds until the page closes.
  }
  for (const listener of listeners) listener();
}

/** The page's theme and the setter; a change made anywhere re-renders every caller. */
export function useTheme(): [ThemeChoice, (next: ThemeChoice) => void] {
  return [useSyncExternalStore(subscribe, currentTheme), setTheme];
}
