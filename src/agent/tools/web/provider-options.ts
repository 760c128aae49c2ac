import { z } from "zod";

/** InfoQuest's "off" value for its time filters and crawl timeouts. */
const DISABLED = -1;
const infoquestSeconds = z.union([z.literal(DISABLED), z.number().int().min(1).max(600)]);
const infoquestDays = z.union([z.literal(DISABLED), z.number().int().min(1).max(365)]);
const milliseconds = z.number().int().min(0).max(120_000);
const shortText = z.string().trim().min(1).max(200);

/**
 * Options only some providers read, under the reference's key names. Each is optional; a
 * provider that does not use a key ignores it (the entry still validates, so a typo in a value
 * is caught at startup, not at the first call).
 */
export const providerOptionsSchema = z.object({
  /** Browserless and Crawl4AI call their credential a token; Fawn treats it as `api_key`. */
  token: z.string().min(1).optional(),
  // DuckDuckGo
  region: shortText.optional(),
  safesearch: z.enum(["on", "moderate", "off", "strict"]).optional(),
  // Exa
  search_type: z.enum(["auto", "neural", "keyword", "fast"]).optional(),
  contents_max_characters: z.number().int().min(100).max(20_000).optional(),
  // InfoQuest
  search_time_range: infoquestDays.optional(),
  image_search_time_range: infoquestDays.optional(),
  image_size: z.enum(["l", "m", "i"]).optional(),
  fetch_time: infoquestSeconds.optional(),
  navigation_timeout: infoquestSeconds.optional(),
  // Crawl4AI
  filter: z.enum(["fit", "raw", "bm25", "llm"]).optional(),
  // Brave image search
  country: shortText.optional(),
  search_lang: shortText.optional(),
  spellcheck: z.boolean().optional(),
  // Browserless fetch and capture
  wait_for_event: z.enum(["load", "domcontentloaded", "networkidle", "networkidle0"]).optional(),
  wait_for_timeout_ms: milliseconds.optional(),
  wait_for_selector: shortText.optional(),
  wait_for_selector_timeout_ms: milliseconds.optional(),
  best_attempt: z.boolean().optional(),
  output_format: z.enum(["png", "jpeg", "webp"]).optional(),
  full_page: z.boolean().optional(),
  viewport_width: z.number().int().min(200).max(4096).optional(),
  viewport_height: z.number().int().min(200).max(4096).optional(),
  quality: z.number().int().min(1).max(100).optional(),
});

export type ProviderOptions = z.infer<typeof providerOptionsSchema>;
