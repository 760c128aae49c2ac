import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Logger } from "../../../core/logger.js";
import { createQueryTool } from "./query-tool.js";
import { formatSearchResults } from "./search/format-search-results.js";
import type { SearchProvider } from "./search/search-provider.js";

export interface WebSearchToolOptions {
  /** The tool name the model calls (the config entry's `name`, normally `web_search`). */
  name: string;
  provider: SearchProvider;
  maxResults: number;
  /** Masked in anything the tool returns. */
  secrets: readonly string[];
  logger: Logger;
}

/** `web_search(query)`: numbered results (title, URL, snippet); failures come back as `Error: …`. */
export function createWebSearchTool(options: WebSearchToolOptions): StructuredToolInterface {
  return createQueryTool({
    ...options,
    description: `Search the web (${options.provider.label}) and get up to ${options.maxResults} results, each with a title, URL and snippet. Use it for current facts and to find pages; read a result in full with web_fetch.`,
    queryHint: "What to search the web for.",
    format: formatSearchResults,
    failurePrefix: `Searching with ${options.provider.label}`,
  });
}
