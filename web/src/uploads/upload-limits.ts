import { apiJson } from "../api/http.js";
import type { UploadLimits } from "./attach-files.js";

export type { UploadLimits };

let cached: Promise<UploadLimits | null> | null = null;

/**
 * The server's upload limits, read once per page. They are server-wide; the route wants a thread
 * id and accepts one no thread has yet (a new chat's), so a fresh id reads them for any chat.
 * Null when they cannot be read: the server still enforces them on upload.
 */
export function loadUploadLimits(): Promise<UploadLimits | null> {
  cached ??= apiJson<UploadLimits>(
    `/threads/${encodeURIComponent(crypto.randomUUID())}/uploads/limits`,
  ).catch(() => {
    cached = null;
    return null;
  });
  return cached;
}
