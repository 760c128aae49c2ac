import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import type { Logger } from "../../../core/logger.js";
import { describeWebToolFailure } from "./web-tool-error.js";

/** A provider answering one query (web pages, images…) with a list of results. */
export interface QueryProvider<R> {
  readonly label: string;
  search(request: { query: string; maxResults: number; signal?: AbortSignal }): Promise<R[]>;
}

export interface QueryToolOptions<R> {
  /** The tool name the model calls (the config entry's `name`). */
  name: string;
  description: string;
  /** What the model should put in `query`. */
  queryHint: string;
  provider: QueryProvider<R>;
  maxResults: number;
  format: (query: string, results: R[]) => string;
  /** Names the work in a failure sentence: "Searching with Tavily". */
  failurePrefix: string;
  /** Masked in anything the tool returns. */
  secrets: readonly string[];
  logger: Logger;
}

/**
 * `<name>(query)`: asks the provider, formats at most `maxResults` results; a failure comes back to
 * the model as `Error: …` (secrets masked) and is logged, never thrown into the run.
 */
export function createQueryTool<R>(options: QueryToolOptions<R>): StructuredToolInterface {
  const { provider, logger } = options;
  const schema = z.object({
    query: z.string().trim().min(1).max(400).describe(options.queryHint),
  });
  return tool(
    async ({ query }, config) => {
      try {
        const results = await provider.search({
          query,
          maxResults: options.maxResults,
          ...(config?.signal ? { signal: config.signal } : {}),
        });
        return options.format(query, results.slice(0, options.maxResults));
      } catch (error) {
        const text = describeWebToolFailure(error, options.failurePrefix, options.secrets);
        logger.warn({ tool: options.name, provider: provider.label }, text);
        return text;
      }
    },
    { name: options.name, description: options.description, schema },
  );
}
