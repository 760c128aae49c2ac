/** Content types of common artifact files; anything else is served as opaque bytes. */
const CONTENT_TYPES: Record<string, string> = {
  ".md": "text/markdown; charset=utf-8",
  ".markdown": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".log": "text/plain; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".tsv": "text/tab-separated-values; charset=utf-8",
  ".json": "application/json",
  ".yaml": "text/yaml; charset=utf-8",
  ".yml": "text/yaml; charset=utf-8",
  ".py": "text/x-python; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".js": "text/plain; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".xhtml": "application/xhtml+xml",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

/**
 * Types a browser would run script from when shown inline. Agent output is untrusted, and
 * inline it would run with the gateway's origin, so these always download (reference: HTML,
 * XHTML and SVG are always attachments).
 */
const ACTIVE_TYPES = new Set([
  "text/html; charset=utf-8",
  "application/xhtml+xml",
  "application/xml",
  "image/svg+xml",
]);

export interface ArtifactPresentation {
  contentType: string;
  /** `attachment` for active content or when asked; else `inline`. */
  disposition: "inline" | "attachment";
}

export function presentationOf(fileName: string, download: boolean): ArtifactPresentation {
  const dot = fileName.lastIndexOf(".");
  const extension = dot > 0 ? fileName.slice(dot).toLowerCase() : "";
  const contentType = CONTENT_TYPES[extension] ?? "application/octet-stream";
  return {
    contentType,
    disposition: download || ACTIVE_TYPES.has(contentType) ? "attachment" : "inline",
  };
}

/** `inline; filename="report.md"; filename*=UTF-8''report.md` (RFC 6266 / RFC 5987). */
export function contentDisposition(
  disposition: ArtifactPresentation["disposition"],
  fileName: string,
): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
