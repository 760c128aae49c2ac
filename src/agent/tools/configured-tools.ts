import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Env } from "../../core/config/env-expansion.js";
import type { FawnConfig } from "../../core/config/schema.js";
import { ConfigError } from "../../core/errors.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import {
  createWebTool,
  type FetchTargetSeams,
  type WebToolBinding,
} from "./web/create-web-tool.js";

export type ConfiguredToolEntry = FawnConfig["tools"][number];

/**
 * `use:` values of `tools:` entries and the Fawn tool each one builds. Fawn's own short names
 * take a `provider` option; the reference's class paths fix the provider, so a reference
 * config.yaml keeps working unchanged.
 */
export const CONFIGURED_TOOL_USES: Readonly<Record<string, WebToolBinding>> = {
  "fawn:web_search": { kind: "web_search" },
  "fawn:web_fetch": { kind: "web_fetch" },
  "deerflow.community.tavily.tools:web_search_tool": { kind: "web_search", provider: "tavily" },
  "deerflow.community.tavily.tools:web_fetch_tool": { kind: "web_fetch", provider: "tavily" },
  "deerflow.community.searxng.tools:web_search_tool": { kind: "web_search", provider: "searxng" },
  "deerflow.community.brave.tools:web_search_tool": { kind: "web_search", provider: "brave" },
  "deerflow.community.jina_ai.tools:web_fetch_tool": { kind: "web_fetch", provider: "jina" },
};

/** The reference's sandbox tools: Fawn always provides them, so their entries add nothing. */
const BUILT_IN_TOOL_PREFIX = "deerflow.sandbox.tools:";
/** Reference community tools Fawn has no port of (DuckDuckGo, InfoQuest, image search, …). */
const REFERENCE_COMMUNITY_PREFIX = "deerflow.community.";

export interface ConfiguredToolsOptions {
  logger?: Logger;
  /** Where provider keys are looked up when an entry has no `api_key` (default process.env). */
  env?: Env;
  /** Names of the tools the agent already has; a configured tool may not shadow one. */
  reservedNames?: readonly string[];
  /** Test seams of web_fetch's private-address check (DNS, which addresses are private). */
  fetchSeams?: FetchTargetSeams;
}

/**
 * The tools `config.yaml`'s `tools:` entries add to the lead agent. An unknown `use` or a bad
 * option is a ConfigError naming the entry; reference sandbox-tool entries are skipped (Fawn
 * always has those tools), and reference community tools without a Fawn port are skipped with
 * a warning, so a reference config still starts.
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
    tools.push(
      createWebTool(entry, binding, {
        where,
        env,
        logger,
        ...(options.fetchSeams ? { fetchSeams: options.fetchSeams } : {}),
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
  if (entry.use.startsWith(REFERENCE_COMMUNITY_PREFIX)) {
    logger.warn(
      { tool: entry.name, use: entry.use },
      `config: ${where} uses ${entry.use}, which Fawn does not provide; the entry is skipped. Supported: ${Object.keys(CONFIGURED_TOOL_USES).join(", ")}`,
    );
    return;
  }
  throw new ConfigError(
    `Unknown tool "use: ${entry.use}" in ${where}. Use one of ${Object.keys(CONFIGURED_TOOL_USES).join(", ")}.`,
  );
}
