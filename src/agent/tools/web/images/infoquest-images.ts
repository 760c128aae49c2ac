import {
  callInfoQuestSearch,
  type InfoQuestSearchSettings,
  timeRangeOf,
} from "../search/infoquest-search.js";
import type { ImageResult, ImageSearchProvider } from "./image-search-provider.js";

export interface InfoQuestImagesSettings extends InfoQuestSearchSettings {
  /** "l" large, "m" medium, "i" icon. */
  imageSize: string | undefined;
}

/** InfoQuest's search API with `search_type: "Images"`; each image URL once. */
export function createInfoQuestImages(settings: InfoQuestImagesSettings): ImageSearchProvider {
  return {
    label: "InfoQuest",
    async search({ query, maxResults, signal }) {
      const pages = await callInfoQuestSearch(
        settings,
        {
          query,
          search_type: "Images",
          ...timeRangeOf(settings.timeRangeDays),
          ...(settings.imageSize ? { image_size: settings.imageSize } : {}),
        },
        signal,
      );
      const seen = new Set<string>();
      const images: ImageResult[] = [];
      for (const page of pages) {
        for (const image of page.content.results.images_results) {
          if (!image.original || seen.has(image.original)) continue;
          seen.add(image.original);
          images.push({
            title: image.title,
            imageUrl: image.original,
            thumbnailUrl: "",
            sourceUrl: "",
          });
        }
      }
      return images.slice(0, maxResults);
    },
  };
}
