import { z } from "zod";

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The reference's Python level names, as the logger (pino) calls them. */
const PYTHON_LEVEL_NAMES: Readonly<Record<string, LogLevel>> = {
  warning: "warn",
  critical: "fatal",
  notset: "trace",
};

/** `log_level:` — any case, Python names (`warning`, `critical`) accepted. */
export const logLevelSchema = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    const lower = value.trim().toLowerCase();
    return PYTHON_LEVEL_NAMES[lower] ?? lower;
  },
  z.enum(LOG_LEVELS, {
    error: `expected one of ${LOG_LEVELS.join(", ")} (or warning, critical)`,
  }),
);
