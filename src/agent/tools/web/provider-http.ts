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
  timeoutMs: number;
  signal?: AbortSignal;
  /** Values that must never reach the model (API keys); masked in every error. */
  secrets: readonly string[];
  /** Explains a status the provider is known to answer when misconfigured. */
  hintForStatus?: (status: number) => string | undefined;
}

/** Provider answers are small JSON documents or page text; anything bigger is cut off here. */
const MAX_PROVIDER_RESPONSE_BYTES = 4 * 1024 * 1024;
const MAX_ERROR_BODY_CHARS = 300;

/**
 * One call to a search or reader API with a deadline and a size cap. Failures become
 * WebToolErrors naming the provider and what to check, with every secret masked (a provider
 * may echo a rejected key back).
 */
export async function callProvider(request: ProviderRequest): Promise<string> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: request.method,
      signal,
      headers: {
        accept: "application/json",
        ...(request.body === undefined ? {} : { "content-type": "application/json" }),
        ...request.headers,
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    text = await readCappedText(response, MAX_PROVIDER_RESPONSE_BYTES);
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
    const hint = request.hintForStatus?.(response.status);
    const excerpt = text.replace(/\s+/g, " ").trim().slice(0, MAX_ERROR_BODY_CHARS);
    throw new WebToolError(
      redactSecrets(
        `${request.provider} answered HTTP ${response.status}${excerpt ? `: ${excerpt}` : ""}${hint ? ` (${hint})` : ""}.`,
        request.secrets,
      ),
    );
  }
  return text;
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

async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size >= maxBytes) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
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
