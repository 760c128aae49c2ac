import { useCallback } from "react";
import { type ErrorText, errorText } from "../api/error-text.js";
import { useLocale } from "./locale-context.js";

/** `errorText` in the current locale, for components. */
export function useErrorText(): (error: unknown) => ErrorText {
  const { locale } = useLocale();
  return useCallback((error: unknown) => errorText(error, locale), [locale]);
}
