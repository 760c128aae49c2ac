import { type ReactNode, useId } from "react";
import type { Locale } from "../i18n/define-messages.js";
import { useLocale, useT } from "../i18n/locale-context.js";
import { settingsMessages } from "../i18n/messages/settings.js";
import { THEMES, type ThemeChoice, useTheme } from "./theme.js";

const THEME_LABELS = {
  system: "themeSystem",
  light: "themeLight",
  dark: "themeDark",
} as const satisfies Record<ThemeChoice, string>;

/** Theme System / Light / Dark, saved in this browser and applied at once. */
export function AppearanceSection(): ReactNode {
  const t = useT(settingsMessages);
  const [theme, setTheme] = useTheme();
  const hintId = useId();
  return (
    <div className="settings-stack">
      <p className="muted">{t("appearanceIntro")}</p>
      <fieldset className="settings-fieldset settings-choices">
        <legend>{t("theme")}</legend>
        {THEMES.map((choice) => (
          <label key={choice} className="settings-choice">
            <input
              type="radio"
              name="theme"
              value={choice}
              checked={theme === choice}
              aria-describedby={choice === "system" ? hintId : undefined}
              onChange={() => setTheme(choice)}
            />
            <span>{t(THEME_LABELS[choice])}</span>
          </label>
        ))}
        <p id={hintId} className="small muted">
          {t("themeSystemHint")}
        </p>
      </fieldset>
    </div>
  );
}

const LANGUAGES: readonly { locale: Locale; key: "english" | "chinese"; lang: string }[] = [
  { locale: "en", key: "english", lang: "en" },
  { locale: "zh-CN", key: "chinese", lang: "zh-CN" },
];

/** English / 简体中文, each named in its own language. */
export function LanguageSection(): ReactNode {
  const t = useT(settingsMessages);
  const { locale, setLocale } = useLocale();
  return (
    <div className="settings-stack">
      <p className="muted">{t("languageIntro")}</p>
      <fieldset className="settings-fieldset settings-choices">
        <legend>{t("language")}</legend>
        {LANGUAGES.map((entry) => (
          <label key={entry.locale} className="settings-choice" lang={entry.lang}>
            <input
              type="radio"
              name="language"
              value={entry.locale}
              checked={locale === entry.locale}
              onChange={() => setLocale(entry.locale)}
            />
            <span>{t(entry.key)}</span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}
