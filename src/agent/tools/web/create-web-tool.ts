import type { StructuredToolInterface } from "@langchain/core/tools";
import { ConfigError } from "../../../core/errors.js";
import { BROWSERLESS_BASE_URL, BROWSERLESS_TOKEN_VARIABLE } from "./browserless-api.js";
import { createWebCaptureTool } from "./capture/web-capture-tool.js";
import { fetchProviderOf } from "./fetch/fetch-providers.js";
import { createImageSearchTool } from "./image-search-tool.js";
import { imageSearchProviderOf } from "./images/image-search-providers.js";
import { keyOf, type WebToolContext } from "./provider-context.js";
import { searchProviderOf } from "./search/search-providers.js";
import { createWebFetchTool } from "./web-fetch-tool.js";
import { createWebSearchTool } from "./web-search-tool.js";
import {
  CAPTURE_PROVIDERS,
  type CaptureProviderName,
  FETCH_PROVIDERS,
  type FetchProviderName,
  IMAGE_SEARCH_PROVIDERS,
  type ImageSearchProviderName,
  parseWebToolSettings,
  SEARCH_PROVIDERS,
  type SearchProviderName,
  type WebToolSettings,
} from "./web-tool-settings.js";

export type { FetchTargetSeams, WebToolContext } from "./provider-context.js";

/** What a `use:` value selects: the tool, and the provider when the `use` fixes one. */
export type WebToolBinding =
  | { kind: "web_search"; provider?: SearchProviderName }
  | { kind: "web_fetch"; provider?: FetchProviderName }
  | { kind: "image_search"; provider?: ImageSearchProviderName }
  | { kind: "web_capture"; provider?: CaptureProviderName };

const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

/** Builds the web tool (search, fetch, image search, capture) one `tools:` entry describes. */
export function createWebTool(
  entry: Record<string, unknown> & { name: string },
  binding: WebToolBinding,
  context: WebToolContext,
): StructuredToolInterface {
  const settings = parseWebToolSettings(entry, context.where);
  if (settings.ignoredKeys.length > 0) {
    context.logger.warn(
      { tool: entry.name, keys: settings.ignoredKeys },
      `config: ${context.where} has options Fawn does not use (${settings.ignoredKeys.join(", ")}); they are ignored`,
    );
  }
  const common = { name: entry.name, logger: context.logger };
  switch (binding.kind) {
    case "web_search": {
      const name = chooseProvider(SEARCH_PROVIDERS, binding, settings, undefined, context.where);
      const { provider, secrets } = searchProviderOf(name, settings, context);
      return createWebSearchTool({ ...common, provider, maxResults: settings.maxResults, secrets });
    }
    case "web_fetch": {
      // Fetching needs no service of its own, so the short form defaults to direct HTTP.
      const name = chooseProvider(FETCH_PROVIDERS, binding, settings, "direct", context.where);
      const { provider, secrets } = fetchProviderOf(name, settings, context);
      return createWebFetchTool({ ...common, provider, secrets });
    }
    case "image_search": {
      // DuckDuckGo needs no key, so it is the short form's default, as in the reference.
      const name = chooseProvider(IMAGE_SEARCH_PROVIDERS, binding, settings, "ddg", context.where);
      const { provider, secrets } = imageSearchProviderOf(name, settings, context);
      return createImageSearchTool({
        ...common,
        provider,
        maxResults: settings.maxResults,
        secrets,
      });
    }
    case "web_capture": {
      chooseProvider(CAPTURE_PROVIDERS, binding, settings, "browserless", context.where);
      return captureToolOf(entry.name, settings, context);
    }
  }
}

function captureToolOf(
  name: string,
  settings: WebToolSettings,
  context: WebToolContext,
): StructuredToolInterface {
  const token = keyOf(settings, BROWSERLESS_TOKEN_VARIABLE, context, "Browserless", false);
  const { options } = settings;
  return createWebCaptureTool({
    name,
    paths: context.paths,
    browserless: {
      baseUrl: settings.baseUrl ?? BROWSERLESS_BASE_URL,
      token,
      timeoutMs: settings.timeoutMs,
      options,
    },
    target: { allowPrivateNetwork: settings.allowPrivateNetwork, ...context.fetchSeams },
    defaults: {
      format: options.output_format ?? "png",
      fullPage: options.full_page ?? true,
      width: options.viewport_width ?? DEFAULT_VIEWPORT.width,
      height: options.viewport_height ?? DEFAULT_VIEWPORT.height,
    },
    secrets: token ? [token] : [],
    logger: context.logger,
  });
}

/** The provider a `use` fixes, else the entry's `provider` (or `fallback`), checked against `allowed`. */
function chooseProvider<P extends string>(
  allowed: readonly P[],
  binding: { kind: string; provider?: P },
  settings: WebToolSettings,
  fallback: P | undefined,
  where: string,
): P {
  const requested = settings.provider;
  if (binding.provider) {
    if (requested !== undefined && requested !== binding.provider) {
      throw new ConfigError(
        `Invalid tool entry ${where}: its use selects the ${binding.provider} provider, but provider is "${requested}". Remove provider, or use fawn:${binding.kind} with it.`,
      );
    }
    return binding.provider;
  }
  const chosen = requested ?? fallback;
  const match = allowed.find((name) => name === chosen);
  if (!match) {
    throw new ConfigError(
      `Invalid tool entry ${where}: set provider to one of ${allowed.join(", ")}${chosen ? ` (got "${chosen}")` : ""}.`,
    );
  }
  return match;
}
