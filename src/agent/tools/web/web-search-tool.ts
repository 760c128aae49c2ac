import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import type { Logger } from "../../../core/logger.js";
import { formatSearchResults } from "./search/format-search-results.js";
import type { SearchProvider } from "./search/search-provider.js";
import { describeWebToolFailure } from "./web-tool-error.js";

const webSearchInput = z.object({
  query: z.string().trim().min(1).max(400).describe("What to search the web for."),
});

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
  const { provider, logger } = options;
  return tool(
    async ({ query }, config) => {
      try {
        const results = await provider.search({
          query,
          maxResults: options.maxResults,
          ...(config?.signal ? { signal: config.signal } : {}),
        });
        return formatSearchResults(query, results.slice(0, options.maxResults));
      } catch (error) {
        const text = describeWebToolFailure(
          error,
          `Searching with ${provider.label}`,
          options.secrets,
        );
        logger.warn({ tool: options.name, provider: provider.label }, text);
        return text;
      }
    },
    {
      name: options.name,
      description: `Search the web (${provider.label}) and get up to ${options.maxResults} results, each with a title, URL and snippet. Use it for current facts and to find pages; read a result in full with web_fetch.`,
      schema: webSearchInput,
    },
  );
}
