/**
 * How the artifacts panel previews a file, by extension. HTML renders in a sandboxed frame
 * (scripts run in an opaque origin: no cookies, no access to the workspace), with its source
 * a click away; code is highlighted; images, PDF, audio and video use the browser's own viewers.
 */
export type PreviewKind =
  | "markdown"
  | "html"
  | "code"
  | "text"
  | "image"
  | "pdf"
  | "audio"
  | "video"
  | "none";

/** Extension → highlight.js language (only the common ones are bundled, each loaded on use). */
const CODE: Readonly<Record<string, string>> = {
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  ts: "typescript",
  tsx: "typescript",
  py: "python",
  sh: "bash",
  bash: "bash",
  json: "json",
  yaml: "yaml",
  yml: "yaml",
  xml: "xml",
  css: "css",
  sql: "sql",
  go: "go",
  rs: "rust",
  java: "java",
  c: "c",
  h: "c",
  cpp: "cpp",
  cc: "cpp",
  hpp: "cpp",
  rb: "ruby",
  toml: "ini",
  ini: "ini",
  diff: "diff",
  patch: "diff",
};
const TEXT = new Set(["txt", "csv", "tsv", "log", "env"]);
const IMAGE = new Set(["png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "avif", "ico"]);
const AUDIO = new Set(["mp3", "wav", "ogg", "m4a", "flac"]);
const VIDEO = new Set(["mp4", "webm", "mov"]);

function extensionOf(path: string): string {
  const name = fileName(path);
  return name.includes(".") ? (name.split(".").at(-1)?.toLowerCase() ?? "") : "";
}

export function previewKind(path: string): PreviewKind {
  const extension = extensionOf(path);
  if (extension === "md" || extension === "markdown") return "markdown";
  if (extension === "html" || extension === "htm") return "html";
  if (extension in CODE) return "code";
  if (TEXT.has(extension)) return "text";
  if (IMAGE.has(extension)) return "image";
  if (extension === "pdf") return "pdf";
  if (AUDIO.has(extension)) return "audio";
  if (VIDEO.has(extension)) return "video";
  return "none";
}

/** The highlight.js language for a code file, or null. */
export function codeLanguage(path: string): string | null {
  return CODE[extensionOf(path)] ?? null;
}

/** Kinds shown from the file's text (read, copied, edited); the others load by URL. */
export function isTextKind(kind: PreviewKind): boolean {
  return kind === "markdown" || kind === "html" || kind === "code" || kind === "text";
}

export function fileName(path: string): string {
  return path.split("/").filter(Boolean).at(-1) ?? path;
}
