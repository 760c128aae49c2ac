import { z } from "zod";
import { callProviderJson, providerEndpoint } from "../provider-http.js";
import { keyHint, requireProviderKey } from "../provider-key.js";
import { EXA_KEY_VARIABLE } from "../search/exa-search.js";
import { checkFetchTarget } from "../url-guard.js";
import { WebToolError } from "../web-tool-error.js";
import type { FetchProvider, FetchProviderSettings } from "./fetch-provider.js";
import { describeProviderPage } from "./provider-page.js";

export interface KeyedFetchSettings extends FetchProviderSettings {
  baseUrl: string;
  apiKey: string | undefined;
}

const contentsAnswer = z.looseObject({
  results: z
    .array(z.looseObject({ title: z.string().nullable().catch(""), text: z.string().catch("") }))
    .catch([]),
  statuses: z
    .array(
      z.looseObject({
        status: z.string().catch(""),
        error: z
          .looseObject({ tag: z.string().catch("") })
          .nullable()
          .optional()
          .catch(null),
      }),
    )
    .optional()
    .catch(undefined),
});

/** Exa's contents API (`POST /contents`) reads the page on Exa's side. */
export function createExaContents(settings: KeyedFetchSettings): FetchProvider {
  return {
    label: "Exa",
    async read(url, signal) {
      const target = await checkFetchTarget(url, settings);
      const apiKey = requireProviderKey(settings.apiKey, "Exa", EXA_KEY_VARIABLE);
      const answer = await callProviderJson({
        provider: "Exa",
        url: providerEndpoint(settings.baseUrl, "/contents"),
        method: "POST",
        headers: { "x-api-key": apiKey },
        body: { urls: [target.url.href], text: { maxCharacters: settings.maxChars } },
        timeoutMs: settings.timeoutMs,
        secrets: [apiKey],
        hintForStatus: keyHint("Exa"),
        ...(signal ? { signal } : {}),
      });
      const parsed = contentsAnswer.safeParse(answer);
      if (!parsed.success) throw new WebToolError("Exa answered in an unexpected format.");
      const failed = parsed.data.statuses?.find((status) => status.status === "error");
      const page = parsed.data.results[0];
      if (!page) {
        const reason = failed?.error?.tag ? ` (${failed.error.tag})` : "";
        throw new WebToolError(`Exa could not read ${target.url.href}${reason}.`);
      }
      return describeProviderPage({
        url: target.url,
        via: "Exa",
        title: page.title ?? undefined,
        text: page.text,
        maxChars: settings.maxChars,
      });
    },
  };
}
