import type { Env } from "../../../core/config/env-expansion.js";
import type { Logger } from "../../../core/logger.js";
import type { FawnPaths } from "../../../core/paths.js";
import type { FetchTargetPolicy } from "./url-guard.js";
import type { WebToolSettings } from "./web-tool-settings.js";

export type FetchTargetSeams = Pick<FetchTargetPolicy, "resolve" | "isBlockedAddress">;

export interface WebToolContext {
  /** How the entry is named in errors and warnings (`tools[1] "web_search"`). */
  where: string;
  /** Where provider keys are looked up when the entry has no `api_key`. */
  env: Env;
  logger: Logger;
  /** Test seams of the private-address check (DNS, which addresses are private). */
  fetchSeams?: FetchTargetSeams;
  /** Thread folders, for tools that write files (web_capture); absent when only validating. */
  paths?: FawnPaths;
}

/** A built provider and the values it must never show (its keys). */
export interface Built<P> {
  provider: P;
  secrets: string[];
}

export function built<P>(provider: P, apiKey: string | undefined): Built<P> {
  return { provider, secrets: apiKey ? [apiKey] : [] };
}

/**
 * The entry's `api_key`, else the provider's usual environment variable. A missing required
 * key is a warning, not a startup failure: the tool answers each call with how to set one.
 */
export function keyOf(
  settings: WebToolSettings,
  variable: string,
  context: WebToolContext,
  provider: string,
  required = true,
): string | undefined {
  const apiKey = settings.apiKey ?? nonEmpty(context.env[variable]);
  if (!apiKey && required) {
    context.logger.warn(
      { provider },
      `config: ${context.where} (${provider}) has no API key; set api_key: $${variable} in the entry or the ${variable} environment variable`,
    );
  }
  return apiKey;
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}
