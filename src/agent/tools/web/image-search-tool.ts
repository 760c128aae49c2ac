import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Logger } from "../../../core/logger.js";
import { formatImageResults } from "./images/format-image-results.js";
import type { ImageSearchProvider } from "./images/image-search-provider.js";
import { createQueryTool } from "./query-tool.js";

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
  return createQueryTool({
    ...options,
    description: `Search for images online (${options.provider.label}) and get up to ${options.maxResults} image URLs with previews and source pages. Use it to find reference images (people, objects, places, styles) before generating or describing images.`,
    queryHint:
      'What the images should show; be specific ("red fox kit in snow, photo" rather than "fox").',
    format: formatImageResults,
    failurePrefix: `Searching images with ${options.provider.label}`,
  });
}
