import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { formatMessage, LOCALES, type Locale, type MessageNamespace } from "./define-messages.js";

const STORAGE_KEY = "fawn.locale";

interface LocaleState {
  locale: Locale;
  setLocale: (locale: Locale) => void;
}

const LocaleContext = createContext<LocaleState>({ locale: "en", setLocale: () => undefined });

function isLocale(value: string | null): value is Locale {
  return value !== null && (LOCALES as readonly string[]).includes(value);
}

/** The saved choice, else the browser's language (any `zh*` reads as Simplified Chinese). */
export function initialLocale(): Locale {
  try {
    const saved = window.localStorage.getItem(STORAGE_KEY);
    if (isLocale(saved)) return saved;
  } catch {
    // Storage can be disabled; fall through to the browser's language.
  }
  return navigator.language.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

export function LocaleProvider({ children }: { children: ReactNode }): ReactNode {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const setLocale = useCallback((next: Locale) => {
    setLocaleState(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Not saved: the choice lasts for this page only.
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  return <LocaleContext.Provider value={value}>{children}</LocaleContext.Provider>;
}

export function useLocale(): LocaleState {
  return useContext(LocaleContext);
}

export type Translate<K extends string> = (
  key: K,
  params?: Readonly<Record<string, string | number>>,
) => string;

/** `t(key, params)` for one namespace, in the current locale. */
export function useT<K extends string>(messages: MessageNamespace<K>): Translate<K> {
  const { locale } = useLocale();
  return useCallback(
    (key: K, params?: Readonly<Record<string, string | number>>) =>
      formatMessage(messages[locale][key], params),
    [messages, locale],
  );
}
