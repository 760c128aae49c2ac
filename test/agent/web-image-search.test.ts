/**
 * image_search against local fakes of DuckDuckGo (keyless: token page, then i.js), Serper,
 * Brave and InfoQuest: the requests, the numbered image list, private or non-http image URLs
 * dropped, and failures as `Error: …` answers without the key.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfiguredTools } from "../../src/agent/tools/configured-tools.js";
import { formatImageResults } from "../../src/agent/tools/web/images/format-image-results.js";
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

function imageTool(
  entry: Record<string, unknown>,
  env: Record<string, string> = {},
): StructuredToolInterface {
  const [tool] = createConfiguredTools(
    [{ name: "image_search", ...entry, use: String(entry.use ?? "fawn:image_search") }],
    { env },
  );
  if (!tool) throw new Error("no tool built");
  return tool;
}

async function search(tool: StructuredToolInterface, query = "fox kit"): Promise<string> {
  const answer: unknown = await tool.invoke({ query });
  if (typeof answer !== "string") throw new Error(`expected text, got ${typeof answer}`);
  return answer;
}

describe("image_search with DuckDuckGo (the reference's default)", () => {
  it("gets the query token, then asks i.js; private image URLs are dropped", async () => {
    const tool = imageTool({
      use: "deerflow.community.image_search.tools:image_search_tool",
      base_url: `${fixture.url}/ok/ddg-images`,
      safesearch: "off",
    });
    expect(tool.name).toBe("image_search");
    expect(await search(tool)).toBe(
      [
        'Image results for "fox kit":',
        "",
        "1. Fox kit",
        "   image: https://img.test/fox.jpg",
        "   thumbnail: https://tse.test/fox",
        "   source: https://fawn.test/fox",
        "",
        "2. Local only thumb",
        "   thumbnail: https://tse.test/ok",
      ].join("\n"),
    );
    expect(fixture.last("/ddg-images/").query.get("q")).toBe("fox kit");
    const api = fixture.last("/ddg-images/i.js");
    expect(Object.fromEntries(api.query)).toMatchObject({
      q: "fox kit",
      vqd: "4-31337",
      o: "json",
      l: "wt-wt",
      p: "-1",
    });
  });

  it("no token (rate limited) and a 5xx are Error answers", async () => {
    const noToken = imageTool({ base_url: `${fixture.url}/ok/ddg` });
    expect(await search(noToken)).toMatch(/^Error: DuckDuckGo answered HTTP 404/);
    const down = imageTool({ base_url: `${fixture.url}/500/ddg-images` });
    expect(await search(down)).toMatch(/^Error: DuckDuckGo answered HTTP 500/);
  });
});

describe("image_search with keyed providers", () => {
  it("Serper posts {q, num} to /images with X-API-KEY", async () => {
    const tool = imageTool(
      {
        use: "deerflow.community.serper.tools:image_search_tool",
        base_url: `${fixture.url}/ok/serper`,
      },
      { SERPER_API_KEY: PROVIDER_TEST_KEY },
    );
    expect(await search(tool, "deer")).toContain(
      "1. Deer\n   image: https://img.test/deer.jpg\n   thumbnail: https://tse.test/deer\n   source: https://fawn.test/deer",
    );
    const request = fixture.last("/serper/images");
    expect(request.headers["x-api-key"]).toBe(PROVIDER_TEST_KEY);
    expect(JSON.parse(request.body)).toEqual({ q: "deer", num: 5 });
  });

  it("Brave sends the key header and its filters as query parameters", async () => {
    const tool = imageTool({
      use: "deerflow.community.brave.tools:image_search_tool",
      base_url: `${fixture.url}/ok/brave`,
      api_key: PROVIDER_TEST_KEY,
      country: "US",
      search_lang: "en",
      safesearch: "strict",
      spellcheck: false,
      max_results: 3,
    });
    expect(await search(tool)).toContain("1. Brave deer\n   image: https://img.test/b.jpg");
    const request = fixture.last("/brave/images/search");
    expect(request.headers["x-subscription-token"]).toBe(PROVIDER_TEST_KEY);
    expect(Object.fromEntries(request.query)).toEqual({
      q: "fox kit",
      count: "3",
      country: "US",
      search_lang: "en",
      safesearch: "strict",
      spellcheck: "false",
    });
  });

  it("InfoQuest asks for Images with its size and time filters, each image once", async () => {
    const tool = imageTool({
      use: "deerflow.community.infoquest.tools:image_search_tool",
      base_url: `${fixture.url}/ok/infoquest-search`,
      api_key: PROVIDER_TEST_KEY,
      image_search_time_range: 10,
      image_size: "m",
    });
    expect(await search(tool)).toBe(
      'Image results for "fox kit":\n\n1. IQ image\n   image: https://img.test/iq.png',
    );
    expect(JSON.parse(fixture.last("/infoquest-search").body)).toEqual({
      format: "JSON",
      query: "fox kit",
      search_type: "Images",
      time_range: 10,
      image_size: "m",
    });
  });

  it("a rejected key is an Error without the key; no key says how to set one", async () => {
    const rejected = await search(
      imageTool({
        provider: "serper",
        base_url: `${fixture.url}/401/serper`,
        api_key: PROVIDER_TEST_KEY,
      }),
    );
    expect(rejected).toMatch(/^Error: Serper answered HTTP 401: invalid credential: \[redacted\]/);
    expect(await search(imageTool({ provider: "brave" }))).toMatch(
      /^Error: Brave Search needs an API key: .*BRAVE_SEARCH_API_KEY/,
    );
  });
});

describe("formatImageResults", () => {
  it("drops non-http, credentialed, loopback and private image URLs", () => {
    const image = (imageUrl: string) => ({ title: "t", imageUrl, thumbnailUrl: "", sourceUrl: "" });
    expect(
      formatImageResults("q", [
        image("file:///etc/passwd"),
        image("https://user:pw@img.test/a.png"),
        image("http://localhost/a.png"),
        image("http://[::1]/a.png"),
        image("http://192.168.1.1/a.png"),
      ]),
    ).toBe('No images found for "q".');
  });
});
