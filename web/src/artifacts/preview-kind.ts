/**
 * How the artifacts panel previews a file, by extension. HTML renders in a sandboxed frame
 * (scripts run in an opaque origin: no cookies, no access to the workspace), with its source
 * a click away.
 */
export type PreviewKind = "markdown" | "html" | "text" | "image" | "none";

const TEXT = new Set([
  "txt",
  "csv",
  "tsv",
  "json",
  "yaml",
  "yml",
  "toml",
  "xml",
  "log",
  "py",
  "js",
  "ts",
  "tsx",
  "jsx",
  "sh",
  "sql",
  "css",
  "c",
  "h",
  "cpp",
  "go",
  "rs",
  "java",
  "rb",
  "ini",
  "env",
]);
const IMAGE = new Set(["png", "jpg", "jpeg", "gif", "webp"]);

export function previewKind(path: string): PreviewKind {
  const extension = fileName(path).split(".").at(-1)?.toLowerCase() ?? "";
  if (extension === "md" || extension === "markdown") return "markdown";
  if (extension === "html" || extension === "htm") return "html";
  if (TEXT.has(extension)) return "text";
  if (IMAGE.has(extension)) return "image";
  return "none";
}

export function fileName(path: string): string {
  return path.split("/").filter(Boolean).at(-1) ?? path;
}
