/**
 * web_search against local impersonations of the Tavily, SearXNG and Brave APIs: compact
 * numbered results (title, URL, snippet) bounded by max_results, provider failures as
 * `Error: …` strings, and API keys never in the output.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfiguredTools } from "../../src/agent/tools/configured-tools.js";
import { formatSearchResults } from "../../src/agent/tools/web/search/format-search-results.js";
import {
  BRAVE_TEST_KEY,
  startWebFixture,
  TAVILY_TEST_KEY,
  type WebFixture,
} from "./web-fixture-server.js";

let fixture: WebFixture;

beforeAll(async () => {
  fixture = await startWebFixture();
});

afterAll(async () => {
  await fixture.close();
});

function searchTool(
  entry: Record<string, unknown>,
  env: Record<string, string> = {},
): StructuredToolInterface {
  const [tool] = createConfiguredTools([{ name: "web_search", ...entry, use: String(entry.use) }], {
    env,
  });
  if (!tool) throw new Error("no tool built");
  return tool;
}

async function search(tool: StructuredToolInterface, query: string): Promise<string> {
  const answer: unknown = await tool.invoke({ query });
  if (typeof answer !== "string") throw new Error(`expected text, got ${typeof answer}`);
  return answer;
}

describe("web_search with Tavily", () => {
  const tavily = (extra: Record<string, unknown> = {}) =>
    searchTool({
      use: "deerflow.community.tavily.tools:web_search_tool",
      base_url: `${fixture.url}/tavily`,
      api_key: TAVILY_TEST_KEY,
      ...extra,
    });

  it("answers numbered results with title, URL and snippet, markup stripped", async () => {
    const text = await search(tavily({ max_results: 2 }), "deer");
    expect(text).toBe(
      [
        'Search results for "deer":',
        "",
        "1. Result 1 & more for deer",
        "   https://example.com/result-1",
        "   Snippet number 1 about fawns.",
        "",
        "2. Result 2 & more for deer",
        "   https://example.com/result-2",
        "   Snippet number 2 about fawns.",
      ].join("\n"),
    );
    const request = fixture.requests.findLast((entry) => entry.path === "/tavily/search");
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({ query: "deer", max_results: 2 });
    expect(request?.body).not.toContain(TAVILY_TEST_KEY);
  });

  it("takes the key from TAVILY_API_KEY when the entry has none", async () => {
    const tool = searchTool(
      { use: "fawn:web_search", provider: "tavily", base_url: `${fixture.url}/tavily` },
      { TAVILY_API_KEY: TAVILY_TEST_KEY },
    );
    expect(await search(tool, "fawn")).toContain("1. Result 1 & more for fawn");
  });

  it("a rejected key is reported without the key, even when the provider echoes it", async () => {
    const wrongKey = "tvly-wrong-secret-value-42";
    const text = await search(tavily({ api_key: wrongKey }), "deer");
    expect(text).toMatch(/^Error: Tavily answered HTTP 401: .*\(check the Tavily API key\)\.$/);
    expect(text).toContain("[redacted]");
    expect(text).not.toContain(wrongKey);
  });

  it("without any key, each call says how to set one", async () => {
    const tool = searchTool({ use: "fawn:web_search", provider: "tavily" });
    expect(await search(tool, "deer")).toBe(
      "Error: Tavily needs an API key: set api_key in this tool's config.yaml entry (api_key: $TAVILY_API_KEY) or the TAVILY_API_KEY environment variable.",
    );
  });
});

describe("web_search with SearXNG", () => {
  const searxng = (extra: Record<string, unknown> = {}) =>
    searchTool({
      use: "deerflow.community.searxng.tools:web_search_tool",
      base_url: `${fixture.url}/searx/`,
      ...extra,
    });

  it("asks for format=json and keeps max_results", async () => {
    const text = await search(searxng({ max_results: 3 }), "deer & fawn");
    expect(text.match(/^\d+\. /gm)).toEqual(["1. ", "2. ", "3. "]);
    const request = fixture.requests.findLast((entry) => entry.path === "/searx/search");
    expect(request?.method).toBe("GET");
  });

  it("explains a refused json format and an answer that is not JSON", async () => {
    expect(await search(searxng(), "json disabled")).toBe(
      "Error: SearXNG answered HTTP 403: Forbidden (the instance refuses format=json; add json to search.formats in its settings.yml).",
    );
    expect(await search(searxng(), "broken")).toBe(
      "Error: SearXNG answered something that is not JSON.",
    );
  });

  it("says the service is down when nothing listens at base_url", async () => {
    const closed = await startWebFixture();
    await closed.close();
    const text = await search(
      searchTool({ use: "fawn:web_search", provider: "searxng", base_url: closed.url }),
      "deer",
    );
    expect(text).toBe(
      `Error: Could not reach SearXNG at ${closed.url}: the connection was refused (is the service running?).`,
    );
  });

  it("times out with a hint instead of hanging", async () => {
    const text = await search(
      searchTool({
        use: "fawn:web_search",
        provider: "searxng",
        base_url: `${fixture.url}/hang#`,
        timeout_seconds: 0.3,
      }),
      "deer",
    );
    expect(text).toBe(
      "Error: SearXNG did not answer within 0.3 s; try again or raise timeout_seconds.",
    );
  });
});

describe("web_search with Brave", () => {
  it("sends the key as X-Subscription-Token and caps count at max_results", async () => {
    const tool = searchTool({
      use: "deerflow.community.brave.tools:web_search_tool",
      base_url: `${fixture.url}/brave/res/v1`,
      max_results: 4,
      api_key: BRAVE_TEST_KEY,
    });
    const text = await search(tool, "deer");
    expect(text.match(/^\d+\. /gm)).toHaveLength(4);
    expect(text).toContain("   Snippet number 4 about fawns.");
    const request = fixture.requests.findLast((entry) => entry.path === "/brave/res/v1/web/search");
    expect(request?.headers["x-subscription-token"]).toBe(BRAVE_TEST_KEY);
    expect(text).not.toContain(BRAVE_TEST_KEY);
  });

  it("a bad key is an Error string without the key", async () => {
    const tool = searchTool({
      use: "fawn:web_search",
      provider: "brave",
      base_url: `${fixture.url}/brave/res/v1`,
      api_key: "brave-wrong-key-value",
    });
    const text = await search(tool, "deer");
    expect(text).toMatch(/^Error: Brave Search answered HTTP 401/);
    expect(text).not.toContain("brave-wrong-key-value");
  });
});

describe("formatSearchResults", () => {
  it("bounds every field and skips results without a URL", () => {
    const text = formatSearchResults("q", [
      { title: "T".repeat(1_000), url: "https://a.test/", snippet: "S".repeat(5_000) },
      { title: "no url", url: "  ", snippet: "x" },
    ]);
    const [, , title, url, snippet] = text.split("\n");
    expect(title).toBe(`1. ${"T".repeat(199)}…`);
    expect(url).toBe("   https://a.test/");
    expect(snippet).toBe(`   ${"S".repeat(499)}…`);
    expect(text).not.toContain("no url");
  });

  it("says when nothing was found", () => {
    expect(formatSearchResults("deer", [])).toBe('No results found for "deer".');
  });
});
