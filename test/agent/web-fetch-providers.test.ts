/**
 * web_fetch through the reference's reader services (Exa, Firecrawl, fastCRW, InfoQuest,
 * GroundRoute, Crawl4AI, Browserless), each against a local fake: the request each sends, the
 * page text it answers, the target-URL guard still applied, and failures as `Error: …`
 * answers without the key.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConfiguredToolsOptions,
  createConfiguredTools,
} from "../../src/agent/tools/configured-tools.js";
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

/** Every page host resolves to a public address here, so no test touches real DNS. */
const publicDns: ConfiguredToolsOptions["fetchSeams"] = {
  resolve: async () => [{ address: "93.184.215.14", family: 4 }],
};

function fetchTool(
  entry: Record<string, unknown>,
  env: Record<string, string> = {},
): StructuredToolInterface {
  const [tool] = createConfiguredTools(
    [{ name: "web_fetch", ...entry, use: String(entry.use ?? "fawn:web_fetch") }],
    { env, fetchSeams: publicDns },
  );
  if (!tool) throw new Error("no tool built");
  return tool;
}

async function read(tool: StructuredToolInterface, url = "https://fawn.test/article") {
  const answer: unknown = await tool.invoke({ url });
  if (typeof answer !== "string") throw new Error(`expected text, got ${typeof answer}`);
  return answer;
}

describe("Exa contents", () => {
  const exa = (path: string) =>
    fetchTool({
      use: "deerflow.community.exa.tools:web_fetch_tool",
      base_url: `${fixture.url}/${path}`,
      api_key: PROVIDER_TEST_KEY,
      max_chars: 2_000,
    });

  it("posts {urls, text.maxCharacters} with x-api-key and answers the page text", async () => {
    expect(await read(exa("ok/exa"))).toBe(
      "# Exa page\n\nSource: https://fawn.test/article (via Exa)\n\nText read by Exa.",
    );
    const request = fixture.last("/exa/contents");
    expect(request.headers["x-api-key"]).toBe(PROVIDER_TEST_KEY);
    expect(JSON.parse(request.body)).toEqual({
      urls: ["https://fawn.test/article"],
      text: { maxCharacters: 2_000 },
    });
  });

  it("a page Exa could not read names its reason; a 401 hides the key", async () => {
    expect(await read(exa("ok/exa-missing"))).toBe(
      "Error: Exa could not read https://fawn.test/article (CRAWL_NOT_FOUND).",
    );
    const rejected = await read(exa("401/exa"));
    expect(rejected).toMatch(/^Error: Exa answered HTTP 401: invalid credential: \[redacted\]/);
  });
});

describe("Firecrawl and fastCRW scrape", () => {
  it("posts {url, formats: [markdown]} to /v2/scrape and notes the site's error status", async () => {
    const tool = fetchTool({
      use: "deerflow.community.firecrawl.tools:web_fetch_tool",
      base_url: `${fixture.url}/ok/firecrawl`,
      api_key: PROVIDER_TEST_KEY,
    });
    expect(await read(tool)).toBe(
      "# Scraped\n\nSource: https://fawn.test/article (via Firecrawl)\n(The site answered HTTP 404.)\n\n# Heading\n\nScraped text.",
    );
    const request = fixture.last("/firecrawl/v2/scrape");
    expect(request.headers.authorization).toBe(`Bearer ${PROVIDER_TEST_KEY}`);
    expect(JSON.parse(request.body)).toEqual({
      url: "https://fawn.test/article",
      formats: ["markdown"],
    });
  });

  it("fastCRW takes CRW_API_KEY and answers bad JSON as an Error", async () => {
    const tool = fetchTool(
      {
        use: "deerflow.community.fastcrw.tools:web_fetch_tool",
        base_url: `${fixture.url}/badjson/fastcrw`,
      },
      { CRW_API_KEY: PROVIDER_TEST_KEY },
    );
    expect(await read(tool)).toBe("Error: fastCRW answered something that is not JSON.");
    expect(fixture.last("/fastcrw/v2/scrape").headers.authorization).toBe(
      `Bearer ${PROVIDER_TEST_KEY}`,
    );
  });
});

describe("InfoQuest reader", () => {
  it("posts {url, format: HTML} with the crawl limits and reads the returned HTML", async () => {
    const tool = fetchTool({
      use: "deerflow.community.infoquest.tools:web_fetch_tool",
      base_url: `${fixture.url}/ok/infoquest-reader`,
      api_key: PROVIDER_TEST_KEY,
      timeout: 10,
      fetch_time: 5,
      navigation_timeout: 30,
    });
    expect(await read(tool)).toBe(
      "# IQ read\n\nSource: https://fawn.test/article (via InfoQuest)\n\nRendered by InfoQuest.",
    );
    const request = fixture.last("/infoquest-reader");
    expect(request.headers.authorization).toBe(`Bearer ${PROVIDER_TEST_KEY}`);
    expect(JSON.parse(request.body)).toEqual({
      url: "https://fawn.test/article",
      format: "HTML",
      fetch_time: 5,
      timeout: 10,
      navi_timeout: 30,
    });
  });

  it("-1 turns the limits off; a missing key says how to set one", async () => {
    const tool = fetchTool({
      provider: "infoquest",
      base_url: `${fixture.url}/ok/infoquest-reader`,
      api_key: PROVIDER_TEST_KEY,
      timeout: -1,
      fetch_time: -1,
    });
    await read(tool);
    expect(JSON.parse(fixture.last("/infoquest-reader").body)).toEqual({
      url: "https://fawn.test/article",
      format: "HTML",
    });
    expect(await read(fetchTool({ provider: "infoquest" }))).toMatch(
      /^Error: InfoQuest needs an API key: .*INFOQUEST_API_KEY/,
    );
  });
});

describe("GroundRoute page mode", () => {
  it("posts {query: url, mode: page, max_results: 1} and answers the content", async () => {
    const tool = fetchTool({
      use: "deerflow.community.groundroute.tools:web_fetch_tool",
      base_url: `${fixture.url}/ok/groundroute`,
      api_key: PROVIDER_TEST_KEY,
    });
    expect(await read(tool)).toBe(
      "# GR page\n\nSource: https://fawn.test/article (via GroundRoute)\n\nFull page text from GroundRoute.",
    );
    expect(JSON.parse(fixture.last("/groundroute/v1/search").body)).toEqual({
      query: "https://fawn.test/article",
      mode: "page",
      max_results: 1,
    });
  });
});

describe("Crawl4AI", () => {
  const crawl4ai = (path: string, extra: Record<string, unknown> = {}) =>
    fetchTool({
      use: "deerflow.community.crawl4ai.tools:web_fetch_tool",
      base_url: `${fixture.url}/${path}`,
      token: PROVIDER_TEST_KEY,
      ...extra,
    });

  it("posts {url, f} to /md with the bearer token and answers its markdown", async () => {
    expect(await read(crawl4ai("ok/crawl4ai", { filter: "bm25" }))).toBe(
      "Source: https://fawn.test/article (via Crawl4AI)\n\nFit markdown from Crawl4AI.",
    );
    const request = fixture.last("/crawl4ai/md");
    expect(request.headers.authorization).toBe(`Bearer ${PROVIDER_TEST_KEY}`);
    expect(JSON.parse(request.body)).toEqual({ url: "https://fawn.test/article", f: "bm25" });
  });

  it("a reported failure and a 401 are Error answers (the 401 with the token hint)", async () => {
    expect(await read(crawl4ai("ok/crawl4ai-fail"))).toBe(
      "Error: Crawl4AI could not read https://fawn.test/article.",
    );
    const rejected = await read(crawl4ai("401/crawl4ai"));
    expect(rejected).toMatch(/^Error: Crawl4AI answered HTTP 401: .*requires a token/);
    expect(rejected).not.toContain(PROVIDER_TEST_KEY);
  });
});

describe("Browserless content", () => {
  const browserless = (path: string, extra: Record<string, unknown> = {}) =>
    fetchTool({
      use: "deerflow.community.browserless.tools:web_fetch_tool",
      base_url: `${fixture.url}/${path}`,
      ...extra,
    });

  it("posts the URL and waits to /content, reads the rendered HTML and the site's status", async () => {
    const tool = browserless("ok/browserless", {
      token: PROVIDER_TEST_KEY,
      wait_for_event: "networkidle",
      wait_for_timeout_ms: 2000,
      wait_for_selector: "article",
    });
    expect(await read(tool)).toBe(
      "# Rendered\n\nSource: https://fawn.test/article (via Browserless)\n(The site answered HTTP 404 Not Found; the content may be an error page.)\n\nAfter scripts ran.",
    );
    const request = fixture.last("/browserless/content");
    expect(request.query.get("token")).toBe(PROVIDER_TEST_KEY);
    expect(JSON.parse(request.body)).toEqual({
      url: "https://fawn.test/article",
      waitForEvent: { event: "networkidle" },
      waitForTimeout: 2000,
      waitForSelector: { selector: "article", timeout: 5000 },
    });
  });

  it("a refused token is an Error without the token; a hang times out", async () => {
    const rejected = await read(browserless("401/browserless", { token: PROVIDER_TEST_KEY }));
    expect(rejected).toMatch(
      /^Error: Browserless answered HTTP 401: .*check the Browserless token/,
    );
    expect(rejected).not.toContain(PROVIDER_TEST_KEY);
    expect(await read(browserless("hang/browserless", { timeout_s: 0.3 }))).toBe(
      "Error: Browserless did not answer within 0.3 s; try again or raise timeout_seconds.",
    );
  });
});

describe("the target URL is still guarded", () => {
  it("a private address is refused before the provider is called", async () => {
    const before = fixture.requests.length;
    const tool = fetchTool({
      provider: "crawl4ai",
      base_url: `${fixture.url}/ok/crawl4ai`,
    });
    expect(await read(tool, "http://10.1.2.3/admin")).toMatch(
      /^Error: Refusing to fetch http:\/\/10\.1\.2\.3: it is 10\.1\.2\.3, a private/,
    );
    expect(fixture.requests.length).toBe(before);
  });
});
