import { API_BASE, ApiError, withCsrf } from "../api/http.js";
import type { UploadAnswer, UploadedFile } from "../api/types.js";

/** How an upload reports and stops: progress in bytes of this file, an abort to cancel. */
export interface UploadControl {
  onProgress: (index: number, loaded: number, total: number) => void;
  signal: AbortSignal;
  /** The sentence a cancelled upload fails with (in the user's language). */
  cancelledText: string;
}

/** A cancelled upload: the message was not sent, its text and files go back to the box. */
export class UploadCancelledError extends Error {
  override readonly name = "UploadCancelledError";
}

/**
 * One file to `POST /threads/{id}/uploads`, through XMLHttpRequest because `fetch` reports no
 * upload progress. A refusal is an `ApiError` with the server's sentence (`413` names the limit).
 */
export function uploadFile(
  threadId: string,
  file: File,
  onProgress: (loaded: number, total: number) => void,
  signal: AbortSignal,
  cancelledText: string,
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new UploadCancelledError(cancelledText));
      return;
    }
    const request = new XMLHttpRequest();
    request.open("POST", `${API_BASE}/threads/${encodeURIComponent(threadId)}/uploads`);
    request.withCredentials = true;
    for (const [key, value] of withCsrf("POST", undefined)) request.setRequestHeader(key, value);
    request.upload.onprogress = (event) =>
      onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    const onAbort = (): void => request.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    request.onloadend = () => signal.removeEventListener("abort", onAbort);
    request.onabort = () => reject(new UploadCancelledError(cancelledText));
    // The connection failed: the same words a failed fetch has, so the UI says "offline".
    request.onerror = () => reject(new TypeError("Failed to fetch"));
    request.onload = () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        const uploaded = (body as UploadAnswer | null)?.files?.[0];
        if (uploaded) {
          onProgress(file.size, file.size);
          resolve(uploaded);
          return;
        }
      }
      reject(apiErrorOf(request.status, request.statusText, body));
    };
    const form = new FormData();
    form.append("files", file, file.name);
    request.send(form);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function apiErrorOf(status: number, statusText: string, body: unknown): ApiError {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const detail = typeof record.detail === "string" ? record.detail : `${status} ${statusText}`;
  const code = typeof record.code === "string" ? record.code : "http_error";
  return new ApiError(status, code, detail);
}
