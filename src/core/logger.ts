import { pino } from "pino";

/** The logging surface Fawn code uses (pino-compatible: context object first, then message). */
export interface Logger {
  debug(context: Record<string, unknown>, message: string): void;
  info(context: Record<string, unknown>, message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(context: Record<string, unknown>, message: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** Keys whose values never reach a log line. */
const REDACTED_PATHS = [
  "api_key",
  "*.api_key",
  "apiKey",
  "*.apiKey",
  "authorization",
  "*.authorization",
  "password",
  "*.password",
  "token",
  "*.token",
];

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  const level =
    options.level ?? process.env.FAWN_LOG_LEVEL ?? (process.env.VITEST ? "silent" : "info");
  return pino({
    name: options.name ?? "fawn",
    level,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  });
}

export const rootLogger: Logger = createLogger();
