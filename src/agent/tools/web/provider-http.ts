import { formatSeconds } from "./fetch/http-get.js";
import { redactSecrets, WebToolError } from "./web-tool-error.js";

export interface ProviderRequest {
  /** How the provider is named in errors ("Tavily", "SearXNG"). */
  provider: string;
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as an HTML form (`application/x-www-form-urlencoded`) instead of `body`. */
  form?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Values that must never reach the model (API keys); masked in every error. */
  secrets: readonly string[];
  /** Explains a status the provider is known to answer when misconfigured. */
  hintForStatus?: (status: number) => string | undefined;
}

/** Provider answers are small JSON documents or page text; anything bigger is cut off here. */
const MAX_PROVIDER_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Screenshots are bigger than text answers; a full-page capture of a long page stays below this. */
export const MAX_PROVIDER_BINARY_BYTES = 25 * 1024 * 1024;
const MAX_ERROR_BODY_CHARS = 300;

/** A provider's successful answer as bytes, with the headers that describe it. */
export interface ProviderBinaryAnswer {
  bytes: Buffer;
  contentType: string | undefined;
  headers: Headers;
  /** The answer was larger than the cap and was cut off. */
  truncated: boolean;
}

/**
 * One call to a search or reader API with a deadline and a size cap. Failures become
 * WebToolErrors naming the provider and what to check, with every secret masked (a provider
 * may echo a rejected key back).
 */
export async function callProvider(request: ProviderRequest): Promise<string> {
  const answer = await sendProviderRequest(request, MAX_PROVIDER_RESPONSE_BYTES);
  return answer.bytes.toString("utf8");
}

/** callProvider for binary answers (screenshots): the bytes, capped at `maxBytes`. */
export async function callProviderBinary(
  request: ProviderRequest,
  maxBytes = MAX_PROVIDER_BINARY_BYTES,
): Promise<ProviderBinaryAnswer> {
  return sendProviderRequest(request, maxBytes);
}

async function sendProviderRequest(
  request: ProviderRequest,
  maxBytes: number,
): Promise<ProviderBinaryAnswer> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let response: Response;
  let body: { bytes: Buffer; truncated: boolean };
  try {
    response = await fetch(request.url, {
      method: request.method,
      signal,
      headers: { accept: "application/json", ...contentTypeOf(request), ...request.headers },
      ...bodyOf(request),
    });
    body = await readCappedBytes(response, maxBytes);
  } catch (error) {
    if (timeout.aborted) {
      throw new WebToolError(
        `${request.provider} did not answer within ${formatSeconds(request.timeoutMs)}; try again or raise timeout_seconds.`,
      );
    }
    if (request.signal?.aborted)
      throw new WebToolError(`The ${request.provider} call was cancelled.`);
    const detail = error instanceof Error ? describeFetchFailure(error) : String(error);
    throw new WebToolError(
      redactSecrets(
        `Could not reach ${request.provider} at ${originOf(request.url)}: ${detail}.`,
        request.secrets,
      ),
    );
  }
  if (!response.ok) {
    const hint = request.hintForStatus?.(response.status) ?? defaultHintFor(response.status);
    const excerpt = body.bytes
      .subarray(0, 4 * MAX_ERROR_BODY_CHARS)
      .toString("utf8")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, MAX_ERROR_BODY_CHARS);
    throw new WebToolError(
      redactSecrets(
        `${request.provider} answered HTTP ${response.status}${excerpt ? `: ${excerpt}` : ""}${hint ? ` (${hint})` : ""}.`,
        request.secrets,
      ),
    );
  }
  return {
    bytes: body.bytes,
    truncated: body.truncated,
    contentType: response.headers.get("content-type") ?? undefined,
    headers: response.headers,
  };
}

function contentTypeOf(request: ProviderRequest): Record<string, string> {
  if (request.form) return { "content-type": "application/x-www-form-urlencoded" };
  return request.body === undefined ? {} : { "content-type": "application/json" };
}

function bodyOf(request: ProviderRequest): { body?: string } {
  if (request.form) return { body: new URLSearchParams(request.form).toString() };
  return request.body === undefined ? {} : { body: JSON.stringify(request.body) };
}

/** Rate limits and outages look alike from every provider; say what they mean. */
function defaultHintFor(status: number): string | undefined {
  if (status === 429) return "rate limited; wait a moment before trying again";
  if (status >= 500) return "the service is having trouble; try again later";
  return undefined;
}

/** `base_url` + an API path, whether or not the base ends with a slash. */
export function providerEndpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}

/** callProvider, then the answer parsed as JSON. */
export async function callProviderJson(request: ProviderRequest): Promise<unknown> {
  const text = await callProvider(request);
  try {
    return JSON.parse(text);
  } catch {
    throw new WebToolError(`${request.provider} answered something that is not JSON.`);
  }
}

async function readCappedBytes(
  response: Response,
  maxBytes: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  if (!response.body) return { bytes: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size > maxBytes) {
        truncated = true;
        break;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), truncated };
}

function describeFetchFailure(error: Error): string {
  const cause = error.cause;
  const code =
    typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : "";
  if (code === "ECONNREFUSED") return "the connection was refused (is the service running?)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host could not be resolved";
  return code ? `${error.message} (${code})` : error.message;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid base_url)";
  }
}
