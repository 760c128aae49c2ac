import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { PluginBinaryResponse, PluginHttpResponse } from "../../extensions/api/plugin.js";
import { contentDisposition, presentationOf } from "../artifacts/artifact-content-type.js";
import type { GatewayEnv } from "../http/gateway-env.js";

/**
 * Types a browser shows without running anything. A plugin's bytes are as untrusted as agent
 * output (often they are agent output), so the list is an allowlist: HTML, SVG, XML and any
 * type not named here download instead of rendering with the gateway's origin.
 */
const INLINE_SAFE = new Set([
  "text/plain",
  "text/markdown",
  "text/csv",
  "text/tab-separated-values",
  "text/yaml",
  "text/x-python",
  "application/json",
  "application/pdf",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);

/** `type/subtype` with optional `; key=value` parameters, no control characters. */
const MIME =
  /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\\\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i;

/** A binary answer (it has `bytes`); a plugin bug may answer anything, so check the shape. */
export function isBinaryAnswer(
  answer: PluginHttpResponse | null | undefined,
): answer is PluginBinaryResponse {
  return typeof answer === "object" && answer !== null && "bytes" in answer;
}

/** Why a binary answer cannot be sent, or null when it can. */
export function binaryAnswerProblem(answer: PluginBinaryResponse): string | null {
  if (!(answer.bytes instanceof Uint8Array)) return "bytes is not a Uint8Array";
  if (answer.contentType !== undefined && !MIME.test(answer.contentType)) {
    return `content type ${JSON.stringify(answer.contentType).slice(0, 100)} is not a MIME type`;
  }
  if (
    answer.filename !== undefined &&
    (typeof answer.filename !== "string" || answer.filename === "")
  ) {
    return "filename is not a non-empty string";
  }
  return null;
}

/** The bytes with their type, length, `nosniff`, and `attachment` unless safe to show inline. */
export function sendBinary(
  c: Context<GatewayEnv>,
  answer: PluginBinaryResponse,
  status: ContentfulStatusCode,
): Response {
  const fileName = (answer.filename ?? "download").replace(/[\r\n/\\]/g, "_");
  const contentType =
    answer.contentType ??
    (answer.filename === undefined
      ? "application/octet-stream"
      : presentationOf(answer.filename, false).contentType);
  const essence = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const inline = !answer.download && INLINE_SAFE.has(essence);
  const headers = {
    "Content-Type": contentType,
    "Content-Length": String(answer.bytes.byteLength),
    "Content-Disposition": contentDisposition(inline ? "inline" : "attachment", fileName),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-cache",
  };
  if (c.req.method === "HEAD") return c.body(null, status, headers);
  // A copy: the plugin's array may view a SharedArrayBuffer, which a response cannot send.
  return c.body(new Uint8Array(answer.bytes), status, headers);
}
