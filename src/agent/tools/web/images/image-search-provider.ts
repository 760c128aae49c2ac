import type { SearchRequest } from "../search/search-provider.js";

export interface ImageResult {
  title: string;
  /** The full-size image. */
  imageUrl: string;
  /** A small preview, when the provider has one. */
  thumbnailUrl: string;
  /** The page the image appears on. */
  sourceUrl: string;
}

/** One image search backend (DuckDuckGo, Serper, Brave, InfoQuest). */
export interface ImageSearchProvider {
  readonly label: string;
  search(request: SearchRequest): Promise<ImageResult[]>;
}
