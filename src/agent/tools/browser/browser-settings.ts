import { z } from "zod";
import { parseToolEntry } from "../web/web-tool-settings.js";

/** Debian's Chromium package; `executable_path` overrides it. */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Options of a browser tool entry. Launch and guard options are read from the
 * `browser_navigate` entry only (one browser serves every browser tool), as in the reference.
 */
const browserEntrySchema = z.object({
  headless: z.boolean().default(true),
  timeout_ms: z.number().int().min(1000).max(300_000).default(30_000),
  viewport_width: z.number().int().min(200).max(4096).default(1280),
  viewport_height: z.number().int().min(200).max(4096).default(720),
  allow_private_addresses: z.boolean().optional(),
  allow_private_network: z.boolean().optional(),
  executable_path: z.string().min(1).max(4096).optional(),
  max_sessions: z.number().int().min(1).max(256).default(8),
  idle_timeout_seconds: z
    .number()
    .positive()
    .max(24 * 3600)
    .default(15 * 60),
  // browser_get_text's cap, as in the reference.
  max_chars: z.number().int().min(200).max(200_000).default(8000),
});

/** Reference keys Fawn reads but does not act on (attaching to a user's Chrome over CDP). */
const NOT_ACTED_ON = ["cdp_url", "allow_unguarded_cdp"];
const KNOWN_KEYS = new Set(["name", "group", "use", ...Object.keys(browserEntrySchema.shape)]);

export interface BrowserSettings {
  headless: boolean;
  timeoutMs: number;
  viewport: { width: number; height: number };
  allowPrivateNetwork: boolean;
  executablePath: string;
  maxSessions: number;
  idleTimeoutMs: number;
  maxChars: number;
  /** Keys of the entry Fawn does not use, for a start-up warning. */
  ignoredKeys: string[];
}

/** Validates a browser tool entry; `where` names it in the error (`tools[3] "browser_navigate"`). */
export function parseBrowserSettings(
  entry: Record<string, unknown>,
  where: string,
): BrowserSettings {
  const options = parseToolEntry(browserEntrySchema, entry, where);
  return {
    headless: options.headless,
    timeoutMs: options.timeout_ms,
    viewport: { width: options.viewport_width, height: options.viewport_height },
    allowPrivateNetwork: options.allow_private_network ?? options.allow_private_addresses ?? false,
    executablePath: options.executable_path ?? DEFAULT_CHROMIUM_PATH,
    maxSessions: options.max_sessions,
    idleTimeoutMs: options.idle_timeout_seconds * 1000,
    maxChars: options.max_chars,
    ignoredKeys: Object.keys(entry).filter(
      (key) => !KNOWN_KEYS.has(key) || NOT_ACTED_ON.includes(key),
    ),
  };
}
