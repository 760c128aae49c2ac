import { isIP } from "node:net";
import { isBlockedAddress } from "../blocked-addresses.js";
import { plainTextOf } from "../html/html-to-text.js";
import type { ImageResult } from "./image-search-provider.js";

const MAX_TITLE_CHARS = 200;
const MAX_URL_CHARS = 1_000;

/**
 * Image results as the model reads them: numbered, with the image, preview and source page
 * URLs. A URL that is not public http(s) (a literal private address, another scheme) is
 * dropped, since the model may hand it to a tool that downloads it; a result with neither a
 * usable image nor a preview is left out.
 */
export function formatImageResults(query: string, results: readonly ImageResult[]): string {
  const usable = results
    .map((result) => ({
      title: clip(plainTextOf(result.title), MAX_TITLE_CHARS) || "(untitled)",
      image: publicUrl(result.imageUrl),
      thumbnail: publicUrl(result.thumbnailUrl),
      source: publicUrl(result.sourceUrl),
    }))
    // A dropped full-size URL is not replaced by the preview: the model would take it for one.
    .filter((result) => result.image !== "" || result.thumbnail !== "");
  if (usable.length === 0) return `No images found for "${query}".`;
  const blocks = usable.map((result, index) =>
    [
      `${index + 1}. ${result.title}`,
      ...(result.image ? [`   image: ${result.image}`] : []),
      ...(result.thumbnail && result.thumbnail !== result.image
        ? [`   thumbnail: ${result.thumbnail}`]
        : []),
      ...(result.source ? [`   source: ${result.source}`] : []),
    ].join("\n"),
  );
  return `Image results for "${query}":\n\n${blocks.join("\n\n")}`;
}

/** The URL if it is http(s), not too long and not a literal private address; else "". */
export function publicUrl(raw: string): string {
  const value = raw.trim();
  if (!value || value.length > MAX_URL_CHARS) return "";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "";
  if (url.username || url.password) return "";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "";
  if (isIP(host) !== 0 && isBlockedAddress(host)) return "";
  return url.href;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
