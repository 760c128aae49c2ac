import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Logger } from "../../../core/logger.js";
import type { ConfiguredToolEntry, ConfiguredToolsOptions } from "../configured-tools.js";
import { browserUnavailableReason } from "./browser-availability.js";
import { BrowserSessionPool, browserPoolFor } from "./browser-session-pool.js";
import { type BrowserSettings, parseBrowserSettings } from "./browser-settings.js";
import { BROWSER_LAUNCH_USE, type BrowserAction, createBrowserTool } from "./browser-tools.js";

export interface BrowserBuild {
  settings: BrowserSettings;
  /** Why the browser tools cannot run here, with the fix. */
  unavailable: string | undefined;
  pool: BrowserSessionPool;
}

/** The browser settings (from the navigate entry) and pool, made once when a browser entry needs them. */
export function lazyBrowser(
  entries: readonly ConfiguredToolEntry[],
  options: ConfiguredToolsOptions,
  logger: Logger,
): () => BrowserBuild {
  let made: BrowserBuild | undefined;
  return () => {
    if (made) return made;
    const index = entries.findIndex((entry) => entry.use === BROWSER_LAUNCH_USE);
    const launch = entries[index] ?? options.browserLaunchEntry;
    const where = launch ? `tools[${Math.max(index, 0)}] "${launch.name}"` : "browser tools";
    const settings = parseBrowserSettings(launch ?? {}, where);
    const poolOptions = { logger, ...(options.fetchSeams ? { seams: options.fetchSeams } : {}) };
    // Validation only (no paths): a pool of its own, which launches nothing until it is used.
    const pool = options.paths
      ? browserPoolFor(options.paths.home, settings, poolOptions)
      : new BrowserSessionPool(settings, poolOptions);
    made = { settings, unavailable: browserUnavailableReason(settings.executablePath), pool };
    return made;
  };
}

export function browserToolOf(
  entry: ConfiguredToolEntry,
  action: BrowserAction,
  where: string,
  browser: BrowserBuild,
  options: ConfiguredToolsOptions,
  logger: Logger,
): StructuredToolInterface | undefined {
  const own = parseBrowserSettings(entry, where);
  if (own.ignoredKeys.length > 0) {
    logger.warn(
      { tool: entry.name, keys: own.ignoredKeys },
      `config: ${where} has options Fawn does not use (${own.ignoredKeys.join(", ")}); they are ignored`,
    );
  }
  if (browser.unavailable) {
    logger.warn(
      { tool: entry.name, use: entry.use },
      `config: ${where} is skipped: ${browser.unavailable}`,
    );
    return undefined;
  }
  return createBrowserTool(action, {
    name: entry.name,
    pool: browser.pool,
    maxChars: own.maxChars,
    paths: options.paths,
    logger,
  });
}
