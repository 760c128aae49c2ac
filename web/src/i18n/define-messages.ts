/**
 * A message namespace: the English strings and their Simplified Chinese translations, in one file
 * per area of the workspace. The Chinese table is typed by the English keys, so a missing or extra
 * key fails the type check; `test/web/i18n-catalog.test.ts` also checks placeholders and blanks.
 */
export type Locale = "en" | "zh-CN";

export const LOCALES: readonly Locale[] = ["en", "zh-CN"];

/** Each language's name in that language, so a reader finds theirs whatever the page speaks. */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = {
  en: "English",
  "zh-CN": "简体中文",
};

export interface MessageNamespace<K extends string> {
  readonly name: string;
  readonly en: Readonly<Record<K, string>>;
  readonly "zh-CN": Readonly<Record<K, string>>;
}

export function defineMessages<const T extends Record<string, string>>(
  name: string,
  en: T,
  zhCN: Readonly<Record<keyof T & string, string>>,
): MessageNamespace<keyof T & string> {
  return { name, en, "zh-CN": zhCN };
}

/** `{name}` placeholders filled from `params`; an unknown placeholder is left as written. */
export function formatMessage(
  template: string,
  params?: Readonly<Record<string, string | number>>,
): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? "").sort();
}
