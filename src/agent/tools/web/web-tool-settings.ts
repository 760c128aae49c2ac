import { z } from "zod";
import { ConfigError } from "../../../core/errors.js";
import { type ProviderOptions, providerOptionsSchema } from "./provider-options.js";

export const SEARCH_PROVIDERS = [
  "tavily",
  "searxng",
  "brave",
  "ddg",
  "serper",
  "exa",
  "firecrawl",
  "fastcrw",
  "infoquest",
  "groundroute",
] as const;
export const FETCH_PROVIDERS = [
  "direct",
  "jina",
  "tavily",
  "exa",
  "firecrawl",
  "fastcrw",
  "infoquest",
  "groundroute",
  "crawl4ai",
  "browserless",
] as const;
export const IMAGE_SEARCH_PROVIDERS = ["ddg", "serper", "brave", "infoquest"] as const;
export const CAPTURE_PROVIDERS = ["browserless"] as const;
export type SearchProviderName = (typeof SEARCH_PROVIDERS)[number];
export type FetchProviderName = (typeof FETCH_PROVIDERS)[number];
export type ImageSearchProviderName = (typeof IMAGE_SEARCH_PROVIDERS)[number];
export type CaptureProviderName = (typeof CAPTURE_PROVIDERS)[number];

export const DEFAULT_MAX_RESULTS = 5;
export const DEFAULT_TIMEOUT_SECONDS = 20;
export const DEFAULT_MAX_CHARS = 10_000;
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

const seconds = z.number().positive().max(600);

/**
 * The options a web tool entry of `tools:` may carry besides `name`, `group` and `use`. The
 * reference's spellings (`timeout`, `timeout_s`, `allow_private_addresses`) are accepted too.
 */
const webToolEntrySchema = providerOptionsSchema.extend({
  provider: z.string().optional(),
  // Brave image search takes up to 200, GroundRoute 50; each provider caps it further.
  max_results: z.number().int().min(1).max(200).default(DEFAULT_MAX_RESULTS),
  api_key: z.string().min(1).optional(),
  base_url: z.url({ protocol: /^https?$/ }).optional(),
  timeout_seconds: seconds.optional(),
  // InfoQuest's convention: -1 means "no limit of my own" (Fawn's default deadline applies).
  timeout: z.union([z.literal(-1), seconds]).optional(),
  timeout_s: seconds.optional(),
  allow_private_network: z.boolean().optional(),
  allow_private_addresses: z.boolean().optional(),
  max_chars: z.number().int().min(500).max(500_000).default(DEFAULT_MAX_CHARS),
  max_bytes: z
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(DEFAULT_MAX_BYTES),
  max_redirects: z.number().int().min(0).max(20).default(DEFAULT_MAX_REDIRECTS),
  user_agent: z.string().min(1).optional(),
});

const KNOWN_KEYS = new Set(["name", "group", "use", ...Object.keys(webToolEntrySchema.shape)]);

export interface WebToolSettings {
  provider: string | undefined;
  maxResults: number;
  apiKey: string | undefined;
  baseUrl: string | undefined;
  timeoutMs: number;
  /** The timeout the entry set explicitly, in seconds (sent on to InfoQuest's crawler). */
  crawlTimeoutSeconds: number | undefined;
  allowPrivateNetwork: boolean;
  maxChars: number;
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  /** Provider-specific options (see provider-options.ts). */
  options: ProviderOptions;
  /** Keys of the entry Fawn does not read (reference-only options), for a startup warning. */
  ignoredKeys: string[];
}

const DEFAULT_USER_AGENT = "Mozilla/5.0 (compatible; Fawn web_fetch)";

/** Validates a web tool entry; `where` names it in the error (`tools[1] "web_search"`). */
export function parseWebToolSettings(
  entry: Record<string, unknown>,
  where: string,
): WebToolSettings {
  const options = parseToolEntry(webToolEntrySchema, entry, where);
  const explicit = options.timeout === -1 ? undefined : options.timeout;
  const timeout = options.timeout_seconds ?? explicit ?? options.timeout_s;
  return {
    provider: options.provider,
    maxResults: options.max_results,
    apiKey: options.api_key ?? options.token,
    baseUrl: options.base_url,
    timeoutMs: (timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    crawlTimeoutSeconds: timeout,
    allowPrivateNetwork: options.allow_private_network ?? options.allow_private_addresses ?? false,
    maxChars: options.max_chars,
    maxBytes: options.max_bytes,
    maxRedirects: options.max_redirects,
    userAgent: options.user_agent ?? DEFAULT_USER_AGENT,
    options,
    ignoredKeys: Object.keys(entry).filter((key) => !KNOWN_KEYS.has(key)),
  };
}

/**
 * Validates a `tools:` entry against its schema; `where` names it in the error, which lists every
 * problem by key. Shared by the web and browser tool entries.
 */
export function parseToolEntry<Schema extends z.ZodType>(
  schema: Schema,
  entry: Record<string, unknown>,
  where: string,
): z.output<Schema> {
  const parsed = schema.safeParse(entry);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join(".") || "(entry)"}: ${issue.message}`)
    .join("; ");
  throw new ConfigError(`Invalid tool entry ${where}: ${problems}. Fix the entry in config.yaml.`);
}
