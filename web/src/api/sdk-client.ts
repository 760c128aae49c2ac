import { Client } from "@langchain/langgraph-sdk/client";
import { API_BASE, withCsrf } from "./http.js";

/**
 * The LangGraph SDK client for Fawn's API on this origin. The session cookie is sent by the
 * browser; the hook adds the CSRF header to the SDK's mutating requests (POST searches too).
 */
export function createSdkClient(): Client {
  return new Client({
    apiUrl: `${window.location.origin}${API_BASE}`,
    apiKey: null,
    callerOptions: { maxRetries: 1 },
    onRequest: (_url, init) => ({
      ...init,
      credentials: "same-origin",
      headers: withCsrf(init.method, init.headers),
    }),
  });
}
