import { z } from "zod";
import type { SearchProviderSettings } from "../search/search-provider.js";
import { callSerper, SERPER_MAX_RESULTS } from "../search/serper-search.js";
import { WebToolError } from "../web-tool-error.js";
import type { ImageSearchProvider } from "./image-search-provider.js";

const imagesAnswer = z.looseObject({
  images: z
    .array(
      z.looseObject({
        title: z.string().catch(""),
        imageUrl: z.string().catch(""),
        thumbnailUrl: z.string().catch(""),
        link: z.string().catch(""),
      }),
    )
    .catch([]),
});

/** Serper's Google Images API (`POST /images`). */
export function createSerperImages(settings: SearchProviderSettings): ImageSearchProvider {
  return {
    label: "Serper",
    async search({ query, maxResults, signal }) {
      const answer = await callSerper(settings, "/images", query, maxResults, signal);
      const parsed = imagesAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("Serper answered in an unexpected format.");
      return parsed.data.images.slice(0, Math.min(maxResults, SERPER_MAX_RESULTS)).map((image) => ({
        title: image.title,
        imageUrl: image.imageUrl,
        thumbnailUrl: image.thumbnailUrl,
        sourceUrl: image.link,
      }));
    },
  };
}
