export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchRequest {
  query: string;
  maxResults: number;
  signal?: AbortSignal;
}

/** One web search backend (Tavily, SearXNG, Brave): a query in, ranked results out. */
export interface SearchProvider {
  /** Shown in tool descriptions and errors. */
  readonly label: string;
  search(request: SearchRequest): Promise<SearchResult[]>;
}

/** Where a provider's request goes and how long it may take; keys stay in the provider. */
export interface SearchProviderSettings {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
}
