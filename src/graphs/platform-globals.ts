import type { Logger } from "../core/logger.js";

/*
 * What `@langchain/langgraph-sdk` finds on `globalThis` inside LangGraph's server, so a graph
 * written for `langgraph dev` runs here unchanged: the logger `getLogger()` from
 * `@langchain/langgraph-sdk/logging` returns, and the API URL a `new Client()` without `apiUrl`
 * calls (this server). Registered before any graph module is imported: a module may call
 * `getLogger()` at its top level.
 */

const SDK_LOGGER = Symbol.for("langgraph.api.sdk-logger");
const SDK_API_URL = Symbol.for("langgraph_api:url");

type LogMethod = (message?: unknown, ...meta: unknown[]) => void;

/** The leveled methods graphs call on the SDK's logger (winston's, as LangGraph's server has). */
export interface SdkLogger {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  http: LogMethod;
  verbose: LogMethod;
  debug: LogMethod;
  silly: LogMethod;
  log(level: string, message?: unknown, ...meta: unknown[]): void;
}

/** A winston-style logger (`message, meta`) over Fawn's (`context, message`). */
export function sdkLogger(logger: Logger): SdkLogger {
  const at =
    (level: "error" | "warn" | "info" | "debug"): LogMethod =>
    (message, ...meta) => {
      const { context, text } = entryOf(message, meta);
      logger[level](context, text);
    };
  const methods = {
    error: at("error"),
    warn: at("warn"),
    info: at("info"),
    http: at("debug"),
    verbose: at("debug"),
    debug: at("debug"),
    silly: at("debug"),
  };
  const byLevel = new Map<string, LogMethod>(Object.entries(methods));
  return {
    ...methods,
    log: (level, message, ...meta) => (byLevel.get(level) ?? methods.info)(message, ...meta),
  };
}

function entryOf(
  message: unknown,
  meta: unknown[],
): { context: Record<string, unknown>; text: string } {
  const context: Record<string, unknown> = {};
  const extra: unknown[] = [];
  for (const item of meta) {
    if (isRecord(item)) Object.assign(context, item);
    else extra.push(item);
  }
  if (extra.length > 0) context.args = extra;
  if (typeof message === "string") return { context, text: message };
  if (message instanceof Error)
    return { context: { ...context, error: message }, text: message.message };
  if (isRecord(message)) {
    const { message: inner, ...rest } = message;
    return { context: { ...rest, ...context }, text: typeof inner === "string" ? inner : "" };
  }
  return { context, text: String(message) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Registers the SDK logger graphs get from `getLogger()`; graphs log through `logger`. */
export function registerSdkLogger(logger: Logger): void {
  Reflect.set(globalThis, SDK_LOGGER, sdkLogger(logger.child({ component: "graph" })));
}

/** Registers the URL an SDK `Client` created without `apiUrl` inside a graph calls. */
export function registerSdkApiUrl(apiUrl: string): void {
  Reflect.set(globalThis, SDK_API_URL, apiUrl);
}
