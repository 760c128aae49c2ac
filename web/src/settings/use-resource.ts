import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "../api/error-text.js";
import { useLocale } from "../i18n/locale-context.js";

export type Resource<T> =
  | { state: "loading" }
  | { state: "ready"; data: T }
  | { state: "failed"; message: string; status: number | null };

/**
 * Loads something for a settings panel and keeps it: `reload()` fetches again, `replace(data)`
 * takes a fresh copy a change answered with (most routes answer the whole document).
 */
export function useResource<T>(load: () => Promise<T>): {
  resource: Resource<T>;
  reload: () => void;
  replace: (data: T) => void;
} {
  const [resource, setResource] = useState<Resource<T>>({ state: "loading" });
  const loadRef = useRef(load);
  loadRef.current = load;
  // Read when an error arrives, so a failure says it in the language shown then.
  const shown = useLocale().locale;
  const locale = useRef(shown);
  locale.current = shown;
  // A slow answer that arrives after a newer one must not overwrite it.
  const generation = useRef(0);

  const reload = useCallback(() => {
    const mine = ++generation.current;
    loadRef
      .current()
      .then((data) => {
        if (mine === generation.current) setResource({ state: "ready", data });
      })
      .catch((error: unknown) => {
        if (mine !== generation.current) return;
        const { text, status } = errorText(error, locale.current);
        setResource({ state: "failed", message: text, status });
      });
  }, []);

  const replace = useCallback((data: T) => {
    generation.current++;
    setResource({ state: "ready", data });
  }, []);

  useEffect(() => {
    reload();
  }, [reload]);

  return { resource, reload, replace };
}

/** Runs one change at a time and keeps its error sentence (or a success note) for the panel. */
export function useAction(): {
  busy: boolean;
  error: string | null;
  note: string | null;
  run: (action: () => Promise<string | null | undefined>) => Promise<boolean>;
  /** Shows a note for a change made elsewhere (a form that closed, say). */
  announce: (note: string) => void;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const { locale } = useLocale();
  const run = useCallback(
    async (action: () => Promise<string | null | undefined>) => {
      setBusy(true);
      setError(null);
      setNote(null);
      try {
        setNote((await action()) ?? null);
        return true;
      } catch (caught) {
        setError(errorText(caught, locale).text);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [locale],
  );
  const announce = useCallback((next: string) => {
    setError(null);
    setNote(next);
  }, []);
  const clear = useCallback(() => {
    setError(null);
    setNote(null);
  }, []);
  return { busy, error, note, run, announce, clear };
}
