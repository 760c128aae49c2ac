import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import type { Logger } from "../../../core/logger.js";
import type { FetchProvider } from "./fetch/fetch-provider.js";
import { describeWebToolFailure } from "./web-tool-error.js";

const webFetchInput = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(4000)
    .describe("The absolute http(s) URL to read, exactly as the user or a search result gave it."),
});

export interface WebFetchToolOptions {
  /** The tool name the model calls (the config entry's `name`, normally `web_fetch`). */
  name: string;
  provider: FetchProvider;
  /** Masked in anything the tool returns. */
  secrets: readonly string[];
  logger: Logger;
}

/** `web_fetch(url)`: the page as readable text; refusals and failures come back as `Error: …`. */
export function createWebFetchTool(options: WebFetchToolOptions): StructuredToolInterface {
  const { provider, logger } = options;
  return tool(
    async ({ url }, config) => {
      try {
        return await provider.read(url, config?.signal);
      } catch (error) {
        const text = describeWebToolFailure(error, `Fetching ${url}`, options.secrets);
        logger.warn({ tool: options.name, provider: provider.label }, text);
        return text;
      }
    },
    {
      name: options.name,
      description:
        "Read a web page and get its text (HTML is converted to readable markdown; JSON and plain text are returned as is; long pages are truncated). Only fetch URLs the user gave or that came from web_search or an earlier web_fetch; pages behind a login cannot be read. The URL must include http:// or https://.",
      schema: webFetchInput,
    },
  );
}
