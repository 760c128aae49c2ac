import { useCallback, useState } from "react";

/**
 * A choice the user expects to survive a reload (model, Plan mode), kept in localStorage.
 * Storage can be unavailable (private modes, quota): the choice then lasts for the page only.
 */
export function useStoredChoice<T extends string | boolean>(
  key: string,
  fallback: T,
  parse: (raw: string) => T | null,
): [T, (next: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = window.localStorage.getItem(key);
      return raw === null ? fallback : (parse(raw) ?? fallback);
    } catch {
      return fallback;
    }
  });
  const store = useCallback(
    (next: T) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, String(next));
      } catch {
        // Not stored: the choice still holds until the page closes.
      }
    },
    [key],
  );
  return [value, store];
}
