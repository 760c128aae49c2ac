import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { z } from "zod";
import type { Logger } from "../../../core/logger.js";
import { formatImageResults } from "./images/format-image-results.js";
import type { ImageSearchProvider } from "./images/image-search-provider.js";
import { describeWebToolFailure } from "./web-tool-error.js";

const imageSearchInput = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(400)
    .describe(
      'What the images should show; be specific ("red fox kit in snow, photo" rather than "fox").',
    ),
});

export interface ImageSearchToolOptions {
  /** The tool name the model calls (the config entry's `name`, normally `image_search`). */
  name: string;
  provider: ImageSearchProvider;
  maxResults: number;
  /** Masked in anything the tool returns. */
  secrets: readonly string[];
  logger: Logger;
}

/** `image_search(query)`: numbered images (title, image URL, preview, source page). */
export function createImageSearchTool(options: ImageSearchToolOptions): StructuredToolInterface {
  const { provider, logger } = options;
  return tool(
    async ({ query }, config) => {
      try {
        const results = await provider.search({
          query,
          maxResults: options.maxResults,
          ...(config?.signal ? { signal: config.signal } : {}),
        });
        return formatImageResults(query, results.slice(0, options.maxResults));
      } catch (error) {
        const text = describeWebToolFailure(
          error,
          `Searching images with ${provider.label}`,
          options.secrets,
        );
        logger.warn({ tool: options.name, provider: provider.label }, text);
        return text;
      }
    },
    {
      name: options.name,
      description: `Search for images online (${provider.label}) and get up to ${options.maxResults} image URLs with previews and source pages. Use it to find reference images (people, objects, places, styles) before generating or describing images.`,
      schema: imageSearchInput,
    },
  );
}
