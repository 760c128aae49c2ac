/**
 * The `tools:` registry: `use` values (Fawn short names and the reference's class paths) build
 * web_search / web_fetch; an unknown `use` or a bad option is a config error naming the entry;
 * reference entries Fawn covers otherwise are skipped; `$ENV` keys work and never reach logs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConfiguredToolEntry,
  checkConfiguredTools,
  createConfiguredTools,
} from "../../src/agent/tools/configured-tools.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { isFawnError } from "../../src/core/errors.js";
import type { Logger } from "../../src/core/logger.js";
import { startWebFixture, TAVILY_TEST_KEY, type WebFixture } from "./web-fixture-server.js";

let fixture: WebFixture;

beforeAll(async () => {
  fixture = await startWebFixture();
});

afterAll(async () => {
  await fixture.close();
});

/** A logger that keeps every line (message and context) for assertions. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (context: Record<string, unknown>, message: string) => {
    lines.push(`${message} ${JSON.stringify(context)}`);
  };
  const logger: Logger & { lines: string[] } = {
    lines,
    debug: record,
    info: record,
    warn: record,
    error: record,
    child: () => logger,
  };
  return logger;
}

function configErrorOf(entries: ConfiguredToolEntry[], reservedNames: string[] = []): string {
  try {
    createConfiguredTools(entries, { env: {}, reservedNames, logger: recordingLogger() });
  } catch (error) {
    expect(isFawnError(error) && error.code).toBe("config_invalid");
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("expected a config error");
}

describe("createConfiguredTools", () => {
  it.each([
    ["deerflow.community.tavily.tools:web_search_tool", "web_search", "Tavily"],
    ["deerflow.community.searxng.tools:web_search_tool", "web_search", "SearXNG"],
    ["deerflow.community.brave.tools:web_search_tool", "web_search", "Brave Search"],
    ["deerflow.community.jina_ai.tools:web_fetch_tool", "web_fetch", "read a web page"],
    ["deerflow.community.tavily.tools:web_fetch_tool", "web_fetch", "read a web page"],
    ["fawn:web_fetch", "web_fetch", "read a web page"],
  ])("maps %s to a %s tool", (use, name, described) => {
    const [tool, ...rest] = createConfiguredTools([{ name, use }], {
      env: {},
      logger: recordingLogger(),
    });
    expect(rest).toEqual([]);
    expect(tool?.name).toBe(name);
    expect(tool?.description.toLowerCase()).toContain(described.toLowerCase());
  });

  it("names the tool after the entry, so two search tools can live side by side", () => {
    const tools = createConfiguredTools(
      [
        { name: "web_search", use: "fawn:web_search", provider: "searxng" },
        { name: "news_search", use: "fawn:web_search", provider: "brave", api_key: "k-123456" },
      ],
      { env: {}, logger: recordingLogger() },
    );
    expect(tools.map((tool) => tool.name)).toEqual(["web_search", "news_search"]);
  });

  it("an unknown use is a config error naming the entry and the choices", () => {
    const message = configErrorOf([
      { name: "web_search", use: "fawn:web_search", provider: "searxng" },
      { name: "my_tool", use: "mypackage.tools:my_tool" },
    ]);
    expect(message).toMatch(
      /^Unknown tool "use: mypackage.tools:my_tool" in tools\[1\] "my_tool"\. Use one of fawn:web_search, fawn:web_fetch, fawn:image_search, fawn:web_capture with a provider, or one of the reference's deerflow\.community\.<provider>\.tools:<tool> paths Fawn maps \(\d+ of them; see "tools" in docs\/CONFIG\.md\)\.$/,
    );
  });

  it("skips reference sandbox tools silently, and browser tools without Chromium and unknown community tools with a warning", () => {
    const logger = recordingLogger();
    const tools = createConfiguredTools(
      [
        { name: "ls", group: "file:read", use: "deerflow.sandbox.tools:ls_tool" },
        { name: "bash", group: "bash", use: "deerflow.sandbox.tools:bash_tool" },
        {
          name: "web_search",
          group: "web",
          use: "deerflow.community.ddg_search.tools:web_search_tool",
          max_results: 5,
        },
        {
          name: "browser_navigate",
          group: "browser",
          use: "deerflow.community.browser_automation.tools:browser_navigate_tool",
          headless: true,
          executable_path: "/nonexistent/chromium",
        },
        { name: "later", use: "deerflow.community.not_yet.tools:later_tool" },
        { name: "web_fetch", group: "web", use: "deerflow.community.jina_ai.tools:web_fetch_tool" },
      ],
      { env: {}, logger, reservedNames: ["ls", "bash"] },
    );
    expect(tools.map((tool) => tool.name)).toEqual(["web_search", "web_fetch"]);
    const lines = logger.lines.join("\n");
    expect(lines).toMatch(
      /tools\[3\] "browser_navigate" is skipped: no Chromium executable at \/nonexistent\/chromium; install Chromium \(apt-get install chromium\) or set executable_path/,
    );
    expect(lines).toMatch(
      /tools\[4\] "later" uses deerflow\.community\.not_yet\.tools:later_tool, which Fawn does not provide; the entry is skipped/,
    );
  });

  it.each([
    [
      { name: "web_search", use: "fawn:web_search" },
      /tools\[0\] "web_search": set provider to one of tavily, searxng, brave, ddg, serper, exa, firecrawl, fastcrw, infoquest, groundroute\./,
    ],
    [
      { name: "web_search", use: "fawn:web_search", provider: "google" },
      /set provider to one of tavily, searxng, brave, ddg, .*, groundroute \(got "google"\)/,
    ],
    [
      { name: "web_fetch", use: "fawn:web_fetch", provider: "searxng" },
      /set provider to one of direct, jina, tavily, .*, browserless \(got "searxng"\)/,
    ],
    [
      {
        name: "web_search",
        use: "deerflow.community.tavily.tools:web_search_tool",
        provider: "brave",
      },
      /its use selects the tavily provider, but provider is "brave"/,
    ],
    [
      { name: "web_search", use: "fawn:web_search", provider: "searxng", max_results: 0 },
      /max_results: Too small/,
    ],
    [{ name: "web_fetch", use: "fawn:web_fetch", base_url: "ftp://x.test/" }, /base_url: /],
    [
      { name: "web_fetch", use: "fawn:web_fetch", timeout_seconds: -1 },
      /timeout_seconds: Too small/,
    ],
    [
      { name: "web_fetch", use: "fawn:web_fetch", allow_private_network: "yes" },
      /allow_private_network: /,
    ],
  ])("rejects a bad entry: %o", (entry, expected) => {
    expect(configErrorOf([entry])).toMatch(expected);
  });

  it("rejects duplicate names and names that shadow a built-in tool", () => {
    expect(
      configErrorOf([
        { name: "web_fetch", use: "fawn:web_fetch" },
        { name: "web_fetch", use: "deerflow.community.jina_ai.tools:web_fetch_tool" },
      ]),
    ).toMatch(
      /tools\[1\] "web_fetch": tools\[0\] "web_fetch" already has this name; tool names must be unique/,
    );
    expect(configErrorOf([{ name: "bash", use: "fawn:web_fetch" }], ["bash"])).toMatch(
      /"bash" is already a built-in tool; give the entry another name/,
    );
  });

  it("warns about options Fawn does not read instead of failing", () => {
    const logger = recordingLogger();
    createConfiguredTools(
      [{ name: "web_fetch", use: "fawn:web_fetch", proxy: "http://proxy:3128", trust_env: true }],
      { env: {}, logger },
    );
    expect(logger.lines.join("\n")).toMatch(
      /tools\[0\] "web_fetch" has options Fawn does not use \(proxy, trust_env\); they are ignored \{"tool":"web_fetch","keys":\["proxy","trust_env"\]\}/,
    );
  });

  it("checkConfiguredTools fails fast on the same errors", () => {
    expect(() => checkConfiguredTools([{ name: "x", use: "nope:x" }], { env: {} })).toThrow(
      /Unknown tool "use: nope:x" in tools\[0\] "x"/,
    );
    expect(() =>
      checkConfiguredTools([{ name: "web_fetch", use: "fawn:web_fetch" }], { env: {} }),
    ).not.toThrow();
  });
});

describe("API keys from config.yaml", () => {
  it("$VAR in api_key is expanded by config loading and used, and never logged", async () => {
    const { config, warnings } = parseConfig(
      {
        tools: [
          {
            name: "web_search",
            group: "web",
            use: "deerflow.community.tavily.tools:web_search_tool",
            api_key: "$FAWN_TEST_TAVILY_KEY",
            base_url: `${fixture.url}/tavily`,
            max_results: 1,
          },
        ],
      },
      { env: { FAWN_HOME: "/tmp/fawn-web-tools", FAWN_TEST_TAVILY_KEY: TAVILY_TEST_KEY } },
    );
    expect(warnings).toEqual([]);
    const logger = recordingLogger();
    const [tool] = createConfiguredTools(config.tools, { env: {}, logger });
    expect(await tool?.invoke({ query: "deer" })).toContain("1. Result 1 & more for deer");
    expect(logger.lines.join("\n")).not.toContain(TAVILY_TEST_KEY);
  });

  it("an unset $VAR leaves the tool without a key: a startup warning, then Error answers", async () => {
    const { config, warnings } = parseConfig(
      {
        tools: [
          {
            name: "web_search",
            use: "deerflow.community.tavily.tools:web_search_tool",
            api_key: "$FAWN_TEST_UNSET_KEY",
          },
        ],
      },
      { env: { FAWN_HOME: "/tmp/fawn-web-tools" } },
    );
    expect(warnings).toEqual([
      "tools[0].api_key: environment variable FAWN_TEST_UNSET_KEY is not set",
    ]);
    const logger = recordingLogger();
    const [tool] = createConfiguredTools(config.tools, { env: {}, logger });
    expect(logger.lines.join("\n")).toMatch(/tools\[0\] "web_search" \(Tavily\) has no API key/);
    expect(await tool?.invoke({ query: "deer" })).toMatch(/^Error: Tavily needs an API key/);
  });

  it("a provider that echoes a bad key: not in the answer, not in the logs", async () => {
    const secret = "tvly-leaky-secret-0987654321";
    const logger = recordingLogger();
    const [tool] = createConfiguredTools(
      [
        {
          name: "web_search",
          use: "fawn:web_search",
          provider: "tavily",
          api_key: secret,
          base_url: `${fixture.url}/tavily`,
        },
      ],
      { env: {}, logger },
    );
    const answer = String(await tool?.invoke({ query: "deer" }));
    expect(answer).toMatch(/^Error: Tavily answered HTTP 401/);
    expect(answer).not.toContain(secret);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.join("\n")).not.toContain(secret);
  });
});
