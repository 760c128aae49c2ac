import { htmlToText } from "../html/html-to-text.js";
import { WebToolError } from "../web-tool-error.js";

export interface FetchedBody {
  url: URL;
  contentType: string | undefined;
  body: Buffer;
  /** The download stopped at the byte cap. */
  truncated: boolean;
}

export interface PageContentLimits {
  /** Characters of page text handed to the model. */
  maxChars: number;
  /** The download cap, named in the truncation note. */
  maxBytes: number;
}

type ContentKind = "html" | "json" | "text" | "binary";

const TEXT_MEDIA_TYPES = new Set([
  "application/javascript",
  "application/ecmascript",
  "application/xml",
  "application/x-yaml",
  "application/yaml",
  "application/toml",
  "application/x-sh",
  "application/sql",
  "application/graphql",
  "application/x-ndjson",
  "application/csv",
]);

/**
 * What web_fetch answers for a downloaded body: HTML as readable text under its title, JSON
 * pretty-printed, other text as is; binary content is refused with a message saying what it
 * was. Long text is cut at `maxChars` with a note saying so.
 */
export async function describePageContent(
  page: FetchedBody,
  limits: PageContentLimits,
): Promise<string> {
  const mediaType = mediaTypeOf(page.contentType);
  const kind = contentKind(mediaType, page.body);
  if (kind === "binary") {
    throw new WebToolError(
      `${page.url.href} is ${mediaType ?? "unlabelled"} content that is not text ` +
        `(${page.body.length}${page.truncated ? "+" : ""} bytes); web_fetch reads HTML, text and JSON only.`,
    );
  }
  const text = decodeText(page.body, charsetOf(page.contentType, page.body, kind));
  const lines: string[] = [];
  let content: string;
  if (kind === "html") {
    const { title, text: readable } = await htmlToText(text, page.url.href);
    if (title) lines.push(`# ${title}`, "");
    content = readable;
  } else {
    content = kind === "json" && !page.truncated ? prettyJson(text) : text;
  }
  lines.push(`Source: ${page.url.href}${mediaType ? ` (${mediaType})` : ""}`, "");
  const header = lines.join("\n");
  const body = content.trim() || "(The page has no readable text.)";
  return `${header}\n${truncateText(body, limits.maxChars)}${downloadNote(page, limits)}`;
}

/** Cuts text at `maxChars` and says how much was left out. */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n\n[... truncated: showing the first ${maxChars} of ${text.length} characters]`;
}

function downloadNote(page: FetchedBody, limits: PageContentLimits): string {
  return page.truncated
    ? `\n\n[... truncated: the page is larger than the ${limits.maxBytes}-byte download limit; the rest was not downloaded]`
    : "";
}

function mediaTypeOf(contentType: string | undefined): string | null {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type ? type : null;
}

function contentKind(mediaType: string | null, body: Buffer): ContentKind {
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "html";
  if (mediaType === "application/json" || mediaType?.endsWith("+json")) return "json";
  if (mediaType?.startsWith("text/") || mediaType?.endsWith("+xml")) return "text";
  if (mediaType && TEXT_MEDIA_TYPES.has(mediaType)) return "text";
  // Unlabelled or generic bodies are judged by their bytes.
  const generic = !mediaType || mediaType === "application/octet-stream";
  if (!generic || looksBinary(body)) return "binary";
  const start = body.subarray(0, 512).toString("latin1").trimStart().toLowerCase();
  if (start.startsWith("<!doctype html") || start.startsWith("<html")) return "html";
  if (start.startsWith("{") || start.startsWith("[")) return "json";
  return "text";
}

/** NUL bytes or invalid UTF-8 in the first 4 KiB: not text a model can read. */
function looksBinary(body: Buffer): boolean {
  const head = body.subarray(0, 4096);
  if (head.includes(0)) return true;
  try {
    // Cut at most 3 bytes of a split character at the end of the sample.
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, trimPartialUtf8(head)));
    return false;
  } catch {
    return true;
  }
}

function trimPartialUtf8(bytes: Buffer): number {
  const end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
    const byte = bytes[end - back] ?? 0;
    if ((byte & 0xc0) === 0xc0) return end - back;
    if ((byte & 0xc0) !== 0x80) break;
  }
  return end;
}

function charsetOf(contentType: string | undefined, body: Buffer, kind: ContentKind): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  if (declared) return declared;
  if (kind === "html") {
    const head = body.subarray(0, 2048).toString("latin1");
    const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
    if (meta) return meta;
  }
  return "utf-8";
}

function decodeText(body: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
