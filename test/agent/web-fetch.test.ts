/**
 * web_fetch against a local server: HTML becomes readable text, text and JSON pass through,
 * binary is refused, downloads stop at the byte cap, redirects are followed and re-checked,
 * failures come back as `Error: …` strings, and private addresses are refused unless the entry
 * sets allow_private_network. Also the Jina reader and Tavily extract providers.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConfiguredToolsOptions,
  createConfiguredTools,
} from "../../src/agent/tools/configured-tools.js";
import { isBlockedAddress } from "../../src/agent/tools/web/blocked-addresses.js";
import { within } from "../helpers/latch.js";
import {
  JINA_TEST_KEY,
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

function fetchTool(
  options: Record<string, unknown> = {},
  seams: ConfiguredToolsOptions = {},
): StructuredToolInterface {
  const [tool] = createConfiguredTools(
    [{ name: "web_fetch", use: "fawn:web_fetch", allow_private_network: true, ...options }],
    { env: {}, ...seams },
  );
  if (!tool) throw new Error("no tool built");
  return tool;
}

async function read(tool: StructuredToolInterface, url: string): Promise<string> {
  const answer: unknown = await tool.invoke({ url });
  if (typeof answer !== "string") throw new Error(`expected text, got ${typeof answer}`);
  return answer;
}

/** Pretends the fixture's loopback address is public, so the guard itself stays switched on. */
const fixtureIsPublic: ConfiguredToolsOptions["fetchSeams"] = {
  isBlockedAddress: (address) => address !== "127.0.0.1" && isBlockedAddress(address),
};

describe("web_fetch (direct HTTP)", () => {
  it("reads an HTML page as markdown under its title, without navigation or scripts", async () => {
    const text = await read(fetchTool(), `${fixture.url}/page.html`);
    expect(text).toMatch(
      /^# Fawn & the Web\n\nSource: http:\/\/127\.0\.0\.1:\d+\/page\.html \(text\/html\)\n\n# Fawn reads pages\n/,
    );
    expect(text).toContain(`The [tool docs](${fixture.url}/docs/tools?x=1&y=2) explain web_fetch.`);
    expect(text).toContain("```\nconst answer = 42;\nif (a < b) return;\n```");
    expect(text).not.toMatch(/Home|footer|tracking|color: red/);
  });

  it("passes plain text through and pretty-prints JSON", async () => {
    const tool = fetchTool();
    expect(await read(tool, `${fixture.url}/plain.txt`)).toBe(
      `Source: ${fixture.url}/plain.txt (text/plain)\n\njust some plain text\nline 2`,
    );
    expect(await read(tool, `${fixture.url}/data.json`)).toBe(
      `Source: ${fixture.url}/data.json (application/json)\n\n{\n  "name": "fawn",\n  "tools": [\n    "web_fetch"\n  ]\n}`,
    );
  });

  it("decodes the declared charset and gzip-compressed bodies", async () => {
    const tool = fetchTool();
    const latin1 = await read(tool, `${fixture.url}/latin1.html`);
    expect(latin1).toContain("# Café");
    expect(latin1).toContain("crème brûlée");
    expect(await read(tool, `${fixture.url}/gzip.html`)).toContain("# Fawn reads pages");
  });

  it("refuses binary content, labelled or not, saying what it was", async () => {
    const tool = fetchTool();
    expect(await read(tool, `${fixture.url}/image.png`)).toMatch(
      /^Error: http:\/\/127\.0\.0\.1:\d+\/image\.png is image\/png content that is not text \(9 bytes\); web_fetch reads HTML, text and JSON only\.$/,
    );
    expect(await read(tool, `${fixture.url}/unlabelled.bin`)).toMatch(
      /^Error: .* is unlabelled content that is not text/,
    );
  });

  it("says so when a page has no readable text", async () => {
    expect(await read(fetchTool(), `${fixture.url}/empty.html`)).toMatch(
      /\n\n\(The page has no readable text\.\)$/,
    );
  });

  it("stops a huge download at max_bytes, hangs up, and marks both truncations", async () => {
    const text = await read(
      fetchTool({ max_bytes: 100_000, max_chars: 1_000 }),
      `${fixture.url}/huge.txt`,
    );
    await within(fixture.hugeAbandoned, 10_000, "the huge download was never abandoned");
    expect(text).toContain(
      `${"a".repeat(1_000)}\n\n[... truncated: showing the first 1000 of 100000 characters]`,
    );
    expect(text).toMatch(
      /\[\.\.\. truncated: the page is larger than the 100000-byte download limit; the rest was not downloaded\]$/,
    );
    expect(text.length).toBeLessThan(1_300);
  });

  it("follows redirects and names the page it ended on", async () => {
    const text = await read(fetchTool(), `${fixture.url}/redirect?to=/plain.txt`);
    expect(text).toMatch(/^Source: http:\/\/127\.0\.0\.1:\d+\/plain\.txt \(text\/plain\)/);
  });

  it("gives up after max_redirects", async () => {
    expect(await read(fetchTool({ max_redirects: 3 }), `${fixture.url}/loop`)).toBe(
      `Error: Too many redirects (more than 3) fetching ${fixture.url}/loop.`,
    );
  });

  it("reports HTTP errors, refused connections and timeouts as Error strings", async () => {
    expect(await read(fetchTool(), `${fixture.url}/missing`)).toBe(
      `Error: ${fixture.url}/missing answered HTTP 404 Not Found.`,
    );
    const closed = await startWebFixture();
    const deadUrl = `${closed.url}/page.html`;
    await closed.close();
    expect(await read(fetchTool(), deadUrl)).toBe(
      `Error: Could not fetch ${deadUrl}: the connection was refused.`,
    );
    expect(await read(fetchTool({ timeout_seconds: 0.3 }), `${fixture.url}/hang`)).toBe(
      `Error: Fetching ${fixture.url}/hang timed out after 0.3 s.`,
    );
  });

  it("a cancelled run drops the connection instead of waiting for the page", async () => {
    const controller = new AbortController();
    const pending = fetchTool().invoke(
      { url: `${fixture.url}/hang-until-cancelled` },
      { signal: controller.signal },
    );
    await within(fixture.requestFor("/hang-until-cancelled"), 10_000, "the request never arrived");
    controller.abort(new Error("run cancelled"));
    await expect(pending).rejects.toThrow("run cancelled");
    await within(fixture.hangClosed, 10_000, "the connection outlived the cancel");
  });

  it("refuses the model's bad input as Error strings, never throwing", async () => {
    const tool = fetchTool();
    expect(await read(tool, "file:///etc/passwd")).toBe(
      'Error: Only http:// and https:// URLs can be fetched; "file:" URLs are refused.',
    );
    expect(await read(tool, "not a url")).toMatch(/^Error: "not a url" is not a valid URL/);
  });
});

describe("web_fetch refuses private networks unless the entry allows them", () => {
  it.each([
    ["the fixture itself (127.0.0.1)", () => `${fixture.url}/page.html`],
    ["IPv6 loopback", () => "http://[::1]:9/"],
    ["a 10.x address", () => "http://10.0.0.1/"],
    ["cloud metadata", () => "http://169.254.169.254/latest/meta-data/"],
    ["localhost by name", () => "http://localhost:9/"],
  ])("refuses %s when allow_private_network is false", async (_label, url) => {
    const before = fixture.requests.length;
    const text = await read(fetchTool({ allow_private_network: false }), url());
    expect(text).toMatch(
      /^Error: Refusing to fetch .*private, loopback, link-local or reserved address/,
    );
    expect(fixture.requests.length).toBe(before);
  });

  it("is off by default: an entry without allow_private_network cannot reach the fixture", async () => {
    const [tool] = createConfiguredTools([{ name: "web_fetch", use: "fawn:web_fetch" }], {
      env: {},
    });
    if (!tool) throw new Error("no tool built");
    expect(await read(tool, `${fixture.url}/plain.txt`)).toMatch(/^Error: Refusing to fetch/);
  });

  it.each([
    ["cloud metadata", "http://169.254.169.254/latest/meta-data/"],
    ["IPv6 loopback", "http://[::1]:9/"],
    ["a 10.x address", "http://10.0.0.1/admin"],
    ["a 192.168.x address", "http://192.168.1.1/"],
    ["a file URL", "file:///etc/passwd"],
  ])(
    "checks every redirect hop: a public page redirecting to %s is refused",
    async (_label, to) => {
      const tool = fetchTool({ allow_private_network: false }, { fetchSeams: fixtureIsPublic });
      const text = await read(tool, `${fixture.url}/redirect?to=${encodeURIComponent(to)}`);
      expect(text).toMatch(/^Error: (Refusing to fetch|Only http)/);
    },
  );

  it("connects to the address it checked, not to a second DNS answer", async () => {
    // fixture.test exists only in this resolver: the request can only arrive if the checked
    // address is the one connected to.
    const tool = fetchTool(
      { allow_private_network: false },
      {
        fetchSeams: {
          ...fixtureIsPublic,
          resolve: async () => [{ address: "127.0.0.1", family: 4 }],
        },
      },
    );
    const port = new URL(fixture.url).port;
    expect(await read(tool, `http://fixture.test:${port}/plain.txt`)).toContain(
      "just some plain text",
    );
  });
});

describe("web_fetch through reader providers", () => {
  it("Jina reader: posts the URL, sends the key, returns its markdown", async () => {
    const tool = fetchTool({
      provider: "jina",
      base_url: `${fixture.url}/jina`,
      api_key: JINA_TEST_KEY,
    });
    const text = await read(tool, "https://example.com/article");
    expect(text).toBe(
      "Source: https://example.com/article (via Jina reader)\n\nTitle: Jina view\n\nURL Source: https://example.com/article\n\nMarkdown Content:\nRead by Jina (keyed).",
    );
    const request = fixture.requests.findLast((entry) => entry.path === "/jina/");
    expect(request?.headers["x-return-format"]).toBe("markdown");
    expect(JSON.parse(request?.body ?? "{}")).toEqual({ url: "https://example.com/article" });
  });

  it("Jina reader by its reference class path takes JINA_API_KEY from the environment", async () => {
    const [tool] = createConfiguredTools(
      [
        {
          name: "web_fetch",
          use: "deerflow.community.jina_ai.tools:web_fetch_tool",
          base_url: `${fixture.url}/jina`,
          allow_private_network: true,
          timeout: 10,
        },
      ],
      { env: { JINA_API_KEY: JINA_TEST_KEY } },
    );
    if (!tool) throw new Error("no tool built");
    expect(await read(tool, "https://example.com/")).toContain("Read by Jina (keyed).");
  });

  it("Jina reader still refuses private targets before calling the reader", async () => {
    const before = fixture.requests.length;
    const tool = fetchTool({
      provider: "jina",
      base_url: `${fixture.url}/jina`,
      allow_private_network: false,
    });
    expect(await read(tool, "http://169.254.169.254/")).toMatch(/^Error: Refusing to fetch/);
    expect(fixture.requests.length).toBe(before);
  });

  it("Tavily extract: the page's text, and Tavily's own failure as an Error string", async () => {
    const [tool] = createConfiguredTools(
      [
        {
          name: "web_fetch",
          use: "deerflow.community.tavily.tools:web_fetch_tool",
          base_url: `${fixture.url}/tavily`,
          api_key: TAVILY_TEST_KEY,
          allow_private_network: true,
        },
      ],
      { env: {} },
    );
    if (!tool) throw new Error("no tool built");
    expect(await read(tool, "https://example.com/a")).toBe(
      "Source: https://example.com/a (via Tavily extract)\n\nExtracted text of https://example.com/a",
    );
    expect(await read(tool, "https://example.com/fails")).toBe(
      "Error: Tavily could not read https://example.com/fails: page blocked.",
    );
  });
});
