/**
 * web_search with the reference's other providers (DuckDuckGo, Serper, Exa, Firecrawl, fastCRW,
 * InfoQuest, GroundRoute), each against a local fake: the request each sends (method, path, key
 * header, body), the results it maps, and every failure (401, 429, 5xx, bad JSON, timeout) as an
 * `Error: …` answer without the key.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfiguredTools } from "../../src/agent/tools/configured-tools.js";
import {
  PROVIDER_TEST_KEY,
  type ProviderFixture,
  startProviderFixture,
} from "./web-provider-fixture.js";

let fixture: ProviderFixture;

beforeAll(async () => {
  fixture = await startProviderFixture();
});

afterAll(async () => {
  await fixture.close();
});

function searchTool(
  entry: Record<string, unknown>,
  env: Record<string, string> = {},
): StructuredToolInterface {
  const [tool] = createConfiguredTools(
    [{ name: "web_search", ...entry, use: String(entry.use ?? "fawn:web_search") }],
    { env },
  );
  if (!tool) throw new Error("no tool built");
  return tool;
}

async function search(tool: StructuredToolInterface, query = "deer"): Promise<string> {
  const answer: unknown = await tool.invoke({ query });
  if (typeof answer !== "string") throw new Error(`expected text, got ${typeof answer}`);
  return answer;
}

describe("DuckDuckGo (no key)", () => {
  const ddg = (path = "ok/ddg", extra: Record<string, unknown> = {}) =>
    searchTool({
      use: "deerflow.community.ddg_search.tools:web_search_tool",
      base_url: `${fixture.url}/${path}`,
      ...extra,
    });

  it("posts the query as a form to /html/ and reads results, skipping ads", async () => {
    const text = await search(ddg("ok/ddg", { region: "de-de", safesearch: "off" }), "deer fawn");
    expect(text).toBe(
      [
        'Search results for "deer fawn":',
        "",
        "1. Deer & fawns",
        "   https://fawn.test/deer?a=1&b=2",
        "   Young deer are called fawns.",
        "",
        "2. Second result",
        "   https://direct.test/page",
        "   Another snippet",
      ].join("\n"),
    );
    const request = fixture.last("/ddg/html/");
    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      q: "deer fawn",
      kl: "de-de",
      kp: "-2",
    });
    expect(request.headers["user-agent"]).toMatch(/Mozilla/);
  });

  it("keeps max_results", async () => {
    const text = await search(ddg("ok/ddg", { max_results: 1 }));
    expect(text.match(/^\d+\. /gm)).toEqual(["1. "]);
  });

  it("its bot check reads as rate limiting, not as no results", async () => {
    expect(await search(ddg("ok/ddg-blocked"))).toMatch(
      /^Error: DuckDuckGo refused the search with its bot check/,
    );
  });

  it("a 5xx and a timeout are Error answers with a hint", async () => {
    expect(await search(ddg("500/ddg"))).toBe(
      "Error: DuckDuckGo answered HTTP 500: internal error (the service is having trouble; try again later).",
    );
    expect(await search(ddg("hang/ddg", { timeout_seconds: 0.3 }))).toBe(
      "Error: DuckDuckGo did not answer within 0.3 s; try again or raise timeout_seconds.",
    );
  });
});

describe("Serper", () => {
  const serper = (path = "ok/serper", extra: Record<string, unknown> = {}) =>
    searchTool({
      use: "deerflow.community.serper.tools:web_search_tool",
      base_url: `${fixture.url}/${path}`,
      api_key: PROVIDER_TEST_KEY,
      ...extra,
    });

  it("posts {q, num} with X-API-KEY, capped at 10 results", async () => {
    const text = await search(serper("ok/serper", { max_results: 15 }));
    expect(text.match(/^\d+\. /gm)).toHaveLength(10);
    expect(text).toContain("1. Serper 1\n   https://s.test/1\n   Snippet 1");
    const request = fixture.last("/serper/search");
    expect(request.method).toBe("POST");
    expect(request.headers["x-api-key"]).toBe(PROVIDER_TEST_KEY);
    expect(JSON.parse(request.body)).toEqual({ q: "deer", num: 10 });
  });

  it("takes SERPER_API_KEY from the environment", async () => {
    const tool = searchTool(
      { provider: "serper", base_url: `${fixture.url}/ok/serper` },
      { SERPER_API_KEY: PROVIDER_TEST_KEY },
    );
    expect(await search(tool)).toContain("1. Serper 1");
  });

  it("401 (echoing the key), 429 and bad JSON are Error answers without the key", async () => {
    const rejected = await search(serper("401/serper"));
    expect(rejected).toBe(
      "Error: Serper answered HTTP 401: invalid credential: [redacted] (check the Serper API key).",
    );
    expect(await search(serper("429/serper"))).toBe(
      "Error: Serper answered HTTP 429: slow down (rate limited; wait a moment before trying again).",
    );
    expect(await search(serper("badjson/serper"))).toBe(
      "Error: Serper answered something that is not JSON.",
    );
  });

  it("without a key, says how to set one", async () => {
    expect(await search(searchTool({ provider: "serper" }))).toBe(
      "Error: Serper needs an API key: set api_key in this tool's config.yaml entry (api_key: $SERPER_API_KEY) or the SERPER_API_KEY environment variable.",
    );
  });
});

describe("Exa", () => {
  it("posts query, type, numResults and highlight size with x-api-key", async () => {
    const tool = searchTool({
      use: "deerflow.community.exa.tools:web_search_tool",
      base_url: `${fixture.url}/ok/exa`,
      api_key: PROVIDER_TEST_KEY,
      search_type: "neural",
      contents_max_characters: 500,
    });
    const text = await search(tool);
    expect(text).toContain("1. Exa hit\n   https://exa.test/1\n   first part … second part");
    expect(text).toContain("2. (untitled)\n   https://exa.test/2");
    const request = fixture.last("/exa/search");
    expect(request.headers["x-api-key"]).toBe(PROVIDER_TEST_KEY);
    expect(JSON.parse(request.body)).toEqual({
      query: "deer",
      type: "neural",
      numResults: 5,
      contents: { highlights: { maxCharacters: 500 } },
    });
  });

  it("a rejected key is reported without it", async () => {
    const text = await search(
      searchTool({
        provider: "exa",
        base_url: `${fixture.url}/401/exa`,
        api_key: PROVIDER_TEST_KEY,
      }),
    );
    expect(text).toMatch(/^Error: Exa answered HTTP 401: .*\(check the Exa API key\)\.$/);
    expect(text).not.toContain(PROVIDER_TEST_KEY);
  });
});

describe("Firecrawl and fastCRW", () => {
  it("Firecrawl posts {query, limit} to /v2/search with a bearer key", async () => {
    const tool = searchTool({
      use: "deerflow.community.firecrawl.tools:web_search_tool",
      base_url: `${fixture.url}/ok/firecrawl`,
      api_key: PROVIDER_TEST_KEY,
      max_results: 3,
    });
    expect(await search(tool)).toContain(
      "1. Firecrawl hit\n   https://fc.test/1\n   Found by Firecrawl",
    );
    const request = fixture.last("/firecrawl/v2/search");
    expect(request.headers.authorization).toBe(`Bearer ${PROVIDER_TEST_KEY}`);
    expect(JSON.parse(request.body)).toEqual({ query: "deer", limit: 3 });
  });

  it("Firecrawl without a key says how to set one", async () => {
    expect(await search(searchTool({ provider: "firecrawl" }))).toMatch(
      /^Error: Firecrawl needs an API key: .*FIRECRAWL_API_KEY/,
    );
  });

  it("fastCRW speaks the same API at CRW_API_URL, keyless when self-hosted", async () => {
    const tool = searchTool(
      { use: "deerflow.community.fastcrw.tools:web_search_tool" },
      { CRW_API_URL: `${fixture.url}/ok/firecrawl` },
    );
    expect(await search(tool)).toContain("1. Firecrawl hit");
    expect(fixture.last("/firecrawl/v2/search").headers.authorization).toBeUndefined();
  });

  it("fastCRW's 500 names fastCRW", async () => {
    const tool = searchTool({ provider: "fastcrw", base_url: `${fixture.url}/500/fastcrw` });
    expect(await search(tool)).toMatch(/^Error: fastCRW answered HTTP 500/);
  });
});

describe("InfoQuest", () => {
  it("posts {format, query, time_range} and lists pages then news, each URL once", async () => {
    const tool = searchTool({
      use: "deerflow.community.infoquest.tools:web_search_tool",
      base_url: `${fixture.url}/ok/infoquest-search`,
      api_key: PROVIDER_TEST_KEY,
      search_time_range: 10,
    });
    expect(await search(tool)).toBe(
      [
        'Search results for "deer":',
        "",
        "1. IQ page",
        "   https://iq.test/1",
        "   Organic result",
        "",
        "2. IQ news",
        "   https://iq.test/news",
        "   Daily Deer",
      ].join("\n"),
    );
    const request = fixture.last("/infoquest-search");
    expect(request.headers.authorization).toBe(`Bearer ${PROVIDER_TEST_KEY}`);
    expect(JSON.parse(request.body)).toEqual({ format: "JSON", query: "deer", time_range: 10 });
  });

  it("search_time_range -1 sends no filter; an unexpected answer is an Error", async () => {
    const tool = searchTool({
      provider: "infoquest",
      base_url: `${fixture.url}/ok/infoquest-search`,
      api_key: PROVIDER_TEST_KEY,
      search_time_range: -1,
    });
    await search(tool);
    expect(JSON.parse(fixture.last("/infoquest-search").body)).toEqual({
      format: "JSON",
      query: "deer",
    });
    const odd = searchTool({
      provider: "infoquest",
      base_url: `${fixture.url}/ok/nothing-here`,
      api_key: PROVIDER_TEST_KEY,
    });
    expect(await search(odd)).toMatch(/^Error: InfoQuest answered HTTP 404/);
  });
});

describe("GroundRoute", () => {
  it("posts {query, max_results} with a bearer key and names the engine used", async () => {
    const tool = searchTool({
      use: "deerflow.community.groundroute.tools:web_search_tool",
      base_url: `${fixture.url}/ok/groundroute`,
      api_key: PROVIDER_TEST_KEY,
      max_results: 60,
    });
    expect(await search(tool)).toContain("1. GR hit\n   https://gr.test/1\n   Routed (via brave)");
    const request = fixture.last("/groundroute/v1/search");
    expect(request.headers.authorization).toBe(`Bearer ${PROVIDER_TEST_KEY}`);
    expect(JSON.parse(request.body)).toEqual({ query: "deer", max_results: 50 });
  });

  it("takes GROUNDROUTE_API_KEY from the environment; a 429 is an Error", async () => {
    const tool = searchTool(
      { provider: "groundroute", base_url: `${fixture.url}/429/groundroute` },
      { GROUNDROUTE_API_KEY: PROVIDER_TEST_KEY },
    );
    expect(await search(tool)).toMatch(/^Error: GroundRoute answered HTTP 429: slow down/);
  });
});
