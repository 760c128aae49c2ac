import type { Locale } from "../i18n/define-messages.js";
import { errorMessages } from "../i18n/messages/errors.js";
import { ApiError } from "./api-error.js";

/** What the UI shows for a failed call: the server's sentence, never a raw status dump. */
export interface ErrorText {
  text: string;
  /** The server could not be reached at all (down, restarting, network gone). */
  offline: boolean;
  status: number | null;
}

/** The English sentence for an unreachable server (`errorText(…, locale)` gives it in another language). */
export const OFFLINE_TEXT = errorMessages.en.offline;

const NETWORK_FAILURE = /Failed to fetch|NetworkError|fetch failed|ECONNREFUSED|Load failed/i;

/**
 * Reads errors from Fawn's own calls (`ApiError`) and from the LangGraph SDK, whose HTTP errors
 * carry the body as text (`HTTP 409: {"detail": …}`) and whose connection failures are a
 * `ConnectionError` about "LangGraph server". The server's own sentences pass through as sent; the
 * ones the page writes itself are in `locale` (components use `useErrorText()`).
 */
export function errorText(error: unknown, locale: Locale = "en"): ErrorText {
  if (error instanceof ApiError)
    return { text: error.message, offline: false, status: error.status };
  const message = messageOf(error);
  const name = error instanceof Error ? error.name : "";
  if (name === "ConnectionError" || NETWORK_FAILURE.test(message)) {
    return { text: errorMessages[locale].offline, offline: true, status: null };
  }
  const status = statusOf(error, message);
  const body = bodyOf(error, message);
  const detail = body === null ? null : detailOf(body);
  return { text: detail ?? (body?.trim() || message), offline: false, status };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) {
    return String((error as { message: unknown }).message);
  }
  return String(error);
}

function statusOf(error: unknown, message: string): number | null {
  if (typeof error === "object" && error !== null && "status" in error) {
    const status = (error as { status: unknown }).status;
    if (typeof status === "number") return status;
  }
  const match = /^HTTP (\d{3}):/.exec(message);
  return match ? Number(match[1]) : null;
}

function bodyOf(error: unknown, message: string): string | null {
  if (typeof error === "object" && error !== null && "text" in error) {
    const text = (error as { text: unknown }).text;
    if (typeof text === "string") return text;
  }
  const match = /^HTTP \d{3}: ([\s\S]*)$/.exec(message);
  return match?.[1] ?? null;
}

function detailOf(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && "detail" in parsed) {
      const detail = (parsed as { detail: unknown }).detail;
      if (typeof detail === "string") return detail;
    }
  } catch {
    // Not JSON: the caller shows the text as it is.
  }
  return null;
}
