import {
  type BrowserlessSettings,
  browserlessRequest,
  browserlessWaits,
  targetStatusNote,
} from "../browserless-api.js";
import { callProviderBinary } from "../provider-http.js";
import { WebToolError } from "../web-tool-error.js";

export type CaptureFormat = "png" | "jpeg" | "webp";

export interface CaptureRequest {
  url: URL;
  format: CaptureFormat;
  fullPage: boolean;
  viewport: { width: number; height: number };
  signal?: AbortSignal;
}

export interface Capture {
  image: Buffer;
  /** A line about the site's own error status, if it answered one. */
  note: string | undefined;
}

/** Browserless's `POST /screenshot`: the page rendered by a real Chrome, as an image. */
export async function captureWithBrowserless(
  settings: BrowserlessSettings,
  request: CaptureRequest,
): Promise<Capture> {
  const quality = request.format === "png" ? undefined : settings.options.quality;
  const body = {
    url: request.url.href,
    options: {
      fullPage: request.fullPage,
      type: request.format,
      ...(quality ? { quality } : {}),
    },
    viewport: request.viewport,
    ...browserlessWaits(settings.options),
  };
  const call = browserlessRequest(settings, "/screenshot", body, "image/*");
  const answer = await callProviderBinary({
    ...call,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (answer.truncated) {
    throw new WebToolError(
      "Browserless answered a screenshot larger than 25 MB; capture the viewport only (full_page: false) or a smaller viewport.",
    );
  }
  const type = answer.contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (answer.bytes.length === 0 || (type !== "" && !type.startsWith("image/"))) {
    throw new WebToolError(
      `Browserless answered ${type || "an empty body"} instead of an image; check base_url points at a Browserless server.`,
    );
  }
  return { image: answer.bytes, note: targetStatusNote(answer.headers) };
}
