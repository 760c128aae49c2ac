import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Env } from "../../core/config/env-expansion.js";
import type { FawnConfig } from "../../core/config/schema.js";
import { ConfigError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import type { FawnPaths } from "../../core/paths.js";
import {
  BROWSER_ACTIONS,
  BROWSER_USE_PREFIX,
  type BrowserAction,
} from "./browser/browser-tools.js";
import { browserToolOf, lazyBrowser } from "./browser/configured-browser-tools.js";
import {
  createWebTool,
  type FetchTargetSeams,
  type WebToolBinding,
} from "./web/create-web-tool.js";

export type ConfiguredToolEntry = FawnConfig["tools"][number];

/** What a `use:` value builds: a web tool, or one of the browser tools sharing a session. */
export type ConfiguredToolBinding = WebToolBinding | { kind: "browser"; action: BrowserAction };

/**
 * `use:` values of `tools:` entries and the Fawn tool each one builds. Fawn's own short names
 * take a `provider` option; the reference's class paths fix the provider, so a reference
 * config.yaml keeps working unchanged.
 */
export const CONFIGURED_TOOL_USES: Readonly<Record<string, ConfiguredToolBinding>> = {
  "fawn:web_search": { kind: "web_search" },
  "fawn:web_fetch": { kind: "web_fetch" },
  "fawn:image_search": { kind: "image_search" },
  "fawn:web_capture": { kind: "web_capture" },
  ...referenceUses("web_search_tool", (provider) => ({ kind: "web_search", provider }), {
    ddg_search: "ddg",
    tavily: "tavily",
    searxng: "searxng",
    brave: "brave",
    serper: "serper",
    exa: "exa",
    firecrawl: "firecrawl",
    fastcrw: "fastcrw",
    infoquest: "infoquest",
    groundroute: "groundroute",
  }),
  ...referenceUses("web_fetch_tool", (provider) => ({ kind: "web_fetch", provider }), {
    jina_ai: "jina",
    tavily: "tavily",
    exa: "exa",
    firecrawl: "firecrawl",
    fastcrw: "fastcrw",
    infoquest: "infoquest",
    groundroute: "groundroute",
    crawl4ai: "crawl4ai",
    browserless: "browserless",
  }),
  ...referenceUses("image_search_tool", (provider) => ({ kind: "image_search", provider }), {
    image_search: "ddg",
    serper: "serper",
    brave: "brave",
    infoquest: "infoquest",
  }),
  ...referenceUses("web_capture_tool", (provider) => ({ kind: "web_capture", provider }), {
    browserless: "browserless",
  }),
  ...Object.fromEntries(
    BROWSER_ACTIONS.map((action) => [
      `${BROWSER_USE_PREFIX}browser_${action}_tool`,
      { kind: "browser", action } satisfies ConfiguredToolBinding,
    ]),
  ),
};

const FAWN_USES = Object.keys(CONFIGURED_TOOL_USES).filter((use) => use.startsWith("fawn:"));

/** What to write instead of an unknown `use` (the full list of class paths is in docs/CONFIG.md). */
export const SUPPORTED_USES_HINT = `Use one of ${FAWN_USES.join(", ")} with a provider, or one of the reference's deerflow.community.<provider>.tools:<tool> paths Fawn maps (${Object.keys(CONFIGURED_TOOL_USES).length - FAWN_USES.length} of them; see "tools" in docs/CONFIG.md)`;

/**
 * Reference tools Fawn does not build, with why and what to use instead, so neither startup
 * nor `fawn doctor` drops them silently.
 */
export const UNAVAILABLE_TOOL_USES: ReadonlyArray<{ prefix: string; reason: string }> = [];

/** Why a `use` Fawn knows of builds nothing, or undefined. */
export function unavailableToolReason(use: string): string | undefined {
  return UNAVAILABLE_TOOL_USES.find((entry) => use.startsWith(entry.prefix))?.reason;
}

/** `deerflow.community.<module>.tools:<fn>` for each module, bound to its provider. */
function referenceUses<P extends string>(
  fn: string,
  bind: (provider: P) => WebToolBinding,
  modules: Record<string, P>,
): Record<string, WebToolBinding> {
  return Object.fromEntries(
    Object.entries(modules).map(([module, provider]) => [
      `deerflow.community.${module}.tools:${fn}`,
      bind(provider),
    ]),
  );
}

/** The reference's sandbox tools: Fawn always provides them, so their entries add nothing. */
const BUILT_IN_TOOL_PREFIX = "deerflow.sandbox.tools:";
/** Other reference community tools (a newer reference than Fawn knows): skipped, not fatal. */
const REFERENCE_COMMUNITY_PREFIX = "deerflow.community.";

export interface ConfiguredToolsOptions {
  logger?: Logger;
  /** Where provider keys are looked up when an entry has no `api_key` (default process.env). */
  env?: Env;
  /** Names of the tools the agent already has; a configured tool may not shadow one. */
  reservedNames?: readonly string[];
  /** Test seams of the private-address check (DNS, which addresses are private). */
  fetchSeams?: FetchTargetSeams;
  /** Thread folders, for tools that save files (web_capture); their home keys the browser pool. */
  paths?: FawnPaths;
  /** The browser_navigate entry, when `entries` is a part of the config that lacks it. */
  browserLaunchEntry?: ConfiguredToolEntry;
}

/**
 * The tools `config.yaml`'s `tools:` entries add to the lead agent. An unknown `use` or a bad
 * option is a ConfigError naming the entry; reference sandbox-tool entries are skipped (Fawn
 * always has those tools), and browser tools without Chromium and community tools newer than
 * Fawn are skipped with a warning, so a reference config still starts.
 */
export function createConfiguredTools(
  entries: readonly ConfiguredToolEntry[],
  options: ConfiguredToolsOptions = {},
): StructuredToolInterface[] {
  const logger = options.logger ?? rootLogger;
  const env = options.env ?? process.env;
  const reserved = new Set(options.reservedNames ?? []);
  const taken = new Map<string, string>();
  const tools: StructuredToolInterface[] = [];
  const browser = lazyBrowser(entries, options, logger);
  entries.forEach((entry, index) => {
    const where = `tools[${index}] "${entry.name}"`;
    const binding = CONFIGURED_TOOL_USES[entry.use];
    if (!binding) {
      skipOrRefuse(entry, where, logger);
      return;
    }
    if (reserved.has(entry.name)) {
      throw new ConfigError(
        `Invalid tool entry ${where}: "${entry.name}" is already a built-in tool; give the entry another name.`,
      );
    }
    const earlier = taken.get(entry.name);
    if (earlier) {
      throw new ConfigError(
        `Invalid tool entry ${where}: ${earlier} already has this name; tool names must be unique (keep one ${entry.name} entry).`,
      );
    }
    taken.set(entry.name, where);
    if (binding.kind === "browser") {
      const built = browserToolOf(entry, binding.action, where, browser(), options, logger);
      if (built) tools.push(built);
      return;
    }
    tools.push(
      createWebTool(entry, binding, {
        where,
        env,
        logger,
        ...(options.fetchSeams ? { fetchSeams: options.fetchSeams } : {}),
        ...(options.paths ? { paths: options.paths } : {}),
      }),
    );
  });
  return tools;
}

/** Validates `tools:` without keeping the tools, so `fawn serve` fails at startup, not at a run. */
export function checkConfiguredTools(
  entries: readonly ConfiguredToolEntry[],
  options: Pick<ConfiguredToolsOptions, "env" | "reservedNames"> = {},
): void {
  const silent: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    child: () => silent,
  };
  createConfiguredTools(entries, { ...options, logger: silent });
}

/** The reference's sandbox tools (`deerflow.sandbox.tools:*`), which Fawn always has. */
export function isBuiltInToolUse(use: string): boolean {
  return use.startsWith(BUILT_IN_TOOL_PREFIX);
}

function skipOrRefuse(entry: ConfiguredToolEntry, where: string, logger: Logger): void {
  if (isBuiltInToolUse(entry.use)) {
    logger.debug({ tool: entry.name }, `config: ${where} is a built-in sandbox tool; skipped`);
    return;
  }
  const reason = unavailableToolReason(entry.use);
  if (reason) {
    logger.warn(
      { tool: entry.name, use: entry.use },
      `config: ${where} uses ${entry.use}, which Fawn does not build; the entry is skipped: ${reason}`,
    );
    return;
  }
  if (entry.use.startsWith(REFERENCE_COMMUNITY_PREFIX)) {
    logger.warn(
      { tool: entry.name, use: entry.use },
      `config: ${where} uses ${entry.use}, which Fawn does not provide; the entry is skipped. ${SUPPORTED_USES_HINT}`,
    );
    return;
  }
  throw new ConfigError(`Unknown tool "use: ${entry.use}" in ${where}. ${SUPPORTED_USES_HINT}.`);
}
