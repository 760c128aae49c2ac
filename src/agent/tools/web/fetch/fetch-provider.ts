import type { FetchTargetPolicy } from "../url-guard.js";

/** One way to read a web page (direct HTTP, Jina reader, Tavily extract): a URL in, text out. */
export interface FetchProvider {
  /** Shown in tool descriptions and errors. */
  readonly label: string;
  /** The page as text for the model; failures throw WebToolError. */
  read(url: string, signal?: AbortSignal): Promise<string>;
}

/** The target check (url-guard) plus how long and how much a read may take. */
export interface FetchProviderSettings extends FetchTargetPolicy {
  timeoutMs: number;
  /** Characters of page text handed to the model. */
  maxChars: number;
}
