import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { checkFetchTarget, type FetchTargetPolicy, pinnedLookup } from "../url-guard.js";
import { WebToolError } from "../web-tool-error.js";

export interface HttpGetOptions extends FetchTargetPolicy {
  timeoutMs: number;
  /** Bytes of (decoded) body kept; the download stops there. */
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  signal?: AbortSignal;
}

export interface HttpGetResult {
  /** The URL that answered, after redirects. */
  url: URL;
  status: number;
  contentType: string | undefined;
  body: Buffer;
  /** The body was longer than `maxBytes` and the rest was not downloaded. */
  truncated: boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * GET over node:http(s) rather than global fetch because the connection must go to the
 * addresses the guard checked (a pinned `lookup`), and every redirect hop is checked again.
 * The body streams into memory up to `maxBytes`, decompressed on the way, then the socket is
 * dropped.
 */
export async function httpGet(target: string, options: HttpGetOptions): Promise<HttpGetResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let current = target;
  try {
    for (let hop = 0; ; hop += 1) {
      const checked = await checkFetchTarget(current, options);
      const response = await sendGet(checked.url, checked.addresses, options.userAgent, signal);
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location) {
        response.destroy();
        if (hop >= options.maxRedirects) {
          throw new WebToolError(
            `Too many redirects (more than ${options.maxRedirects}) fetching ${target}.`,
          );
        }
        current = new URL(location, checked.url).href;
        continue;
      }
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.destroy();
        const reason = response.statusMessage ? ` ${response.statusMessage}` : "";
        throw new WebToolError(`${checked.url.href} answered HTTP ${status}${reason}.`);
      }
      const { body, truncated } = await readCapped(response, options.maxBytes);
      return {
        url: checked.url,
        status,
        contentType: response.headers["content-type"],
        body,
        truncated,
      };
    }
  } catch (error) {
    if (error instanceof WebToolError) throw error;
    if (timeout.aborted) {
      throw new WebToolError(
        `Fetching ${current} timed out after ${formatSeconds(options.timeoutMs)}.`,
      );
    }
    if (options.signal?.aborted) throw new WebToolError(`Fetching ${current} was cancelled.`);
    throw new WebToolError(`Could not fetch ${current}: ${describeNetworkError(error)}.`);
  }
}

function sendGet(
  url: URL,
  addresses: Parameters<typeof pinnedLookup>[0] | null,
  userAgent: string,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: "GET",
        signal,
        headers: {
          "user-agent": userAgent,
          accept:
            "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5",
          "accept-encoding": "gzip, deflate, br",
        },
        ...(addresses ? { lookup: pinnedLookup(addresses) } : {}),
      },
      resolve,
    );
    request.on("error", reject);
    request.end();
  });
}

async function readCapped(
  response: IncomingMessage,
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const source = decodedBody(response);
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of source) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      if (size + bytes.length > maxBytes) {
        chunks.push(bytes.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(bytes);
      size += bytes.length;
    }
  } finally {
    response.destroy();
    if (source !== response) source.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/** The response body with its content-encoding undone; the cap applies to the decoded bytes. */
function decodedBody(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : null;
  if (!decoder) return response;
  // pipeline forwards a broken source or a corrupt stream to the decoder we iterate.
  pipeline(response, decoder, () => undefined);
  return decoder;
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ECONNREFUSED") return "the connection was refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host could not be resolved";
  if (code === "ECONNRESET") return "the connection was reset";
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) return `TLS failed (${code})`;
  if (code?.startsWith("Z_")) return "the compressed body is corrupt";
  return code ? `${error.message} (${code})` : error.message;
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
