import { type ReactNode, useId } from "react";
import { LANGUAGE_NAMES, LOCALES } from "./define-messages.js";
import { useLocale, useT } from "./locale-context.js";
import { shellMessages } from "./messages/shell.js";

/**
 * A labelled select of the workspace's languages; switching applies at once and is saved
 * (`useLocale().setLocale`). Each language is named in its own language, so a reader who does
 * not understand the current one still finds theirs.
 */
export function LanguagePicker({ className }: { className?: string }): ReactNode {
  const { locale, setLocale } = useLocale();
  const t = useT(shellMessages);
  const id = useId();
  return (
    <div className={className ? `language-picker ${className}` : "language-picker"}>
      <label htmlFor={id}>{t("language")}</label>
      <select
        id={id}
        value={locale}
        onChange={(event) => {
          const chosen = LOCALES.find((choice) => choice === event.target.value);
          if (chosen) setLocale(chosen);
        }}
      >
        {LOCALES.map((choice) => (
          <option key={choice} value={choice} lang={choice}>
            {LANGUAGE_NAMES[choice]}
          </option>
        ))}
      </select>
    </div>
  );
}
