import { WebToolError } from "./web-tool-error.js";

/** The key a provider needs, or a WebToolError telling the model (and operator) how to set it. */
export function requireProviderKey(
  apiKey: string | undefined,
  provider: string,
  variable: string,
): string {
  if (apiKey) return apiKey;
  throw new WebToolError(
    `${provider} needs an API key: set api_key in this tool's config.yaml entry (api_key: $${variable}) or the ${variable} environment variable.`,
  );
}

/** Status hint for a rejected key, shared by every keyed provider. */
export function keyHint(provider: string): (status: number) => string | undefined {
  return (status) =>
    status === 401 || status === 403 ? `check the ${provider} API key` : undefined;
}
