/**
 * Every `use:` of the reference's config.example.yaml `tools:` block means something in Fawn:
 * a built tool (browser automation too, when Chromium is installed), a built-in sandbox tool,
 * or "unavailable" with the reason and the fix — never dropped silently — as `fawn doctor`
 * reports it.
 */
import { describe, expect, it } from "vitest";
import { CONFIGURED_TOOL_USES } from "../../src/agent/tools/configured-tools.js";
import { describeConfiguredTools } from "../../src/agent/tools/describe-configured-tools.js";
import { CHROMIUM_PATH, requireChromium } from "../web/helpers/chromium.js";

/** The `use:` values of the reference's config.example.yaml tools block (commented ones too). */
const REFERENCE_TOOL_USES = {
  web_search: [
    "ddg_search",
    "searxng",
    "serper",
    "brave",
    "tavily",
    "infoquest",
    "exa",
    "firecrawl",
    "groundroute",
    "fastcrw",
  ].map((module) => `deerflow.community.${module}.tools:web_search_tool`),
  web_fetch: [
    "browserless",
    "crawl4ai",
    "exa",
    "jina_ai",
    "infoquest",
    "firecrawl",
    "groundroute",
    "fastcrw",
    "tavily",
  ].map((module) => `deerflow.community.${module}.tools:web_fetch_tool`),
  image_search: ["image_search", "infoquest", "serper", "brave"].map(
    (module) => `deerflow.community.${module}.tools:image_search_tool`,
  ),
  web_capture: ["deerflow.community.browserless.tools:web_capture_tool"],
};

const BROWSER_TOOLS = [
  "navigate",
  "snapshot",
  "click",
  "type",
  "get_text",
  "back",
  "screenshot",
  "close",
];

describe("the reference's tools block", () => {
  it.each(
    Object.entries(REFERENCE_TOOL_USES).flatMap(([kind, uses]) => uses.map((use) => [use, kind])),
  )("%s builds a %s tool", (use, kind) => {
    expect(CONFIGURED_TOOL_USES[use]?.kind).toBe(kind);
    const [status] = describeConfiguredTools([{ name: kind, group: "web", use }], { env: {} });
    expect(status).toMatchObject({ name: kind, use, status: "built" });
    expect(status?.detail).toMatch(new RegExp(`^${kind} via [a-z0-9]+(;|$)`));
  });

  it("browser entries are built when Chromium is present, else unavailable with the fix", async () => {
    const entries = (launch: Record<string, unknown>) =>
      BROWSER_TOOLS.map((tool) => ({
        name: `browser_${tool}`,
        group: "browser",
        use: `deerflow.community.browser_automation.tools:browser_${tool}_tool`,
        ...(tool === "navigate" ? launch : {}),
      }));
    if (await requireChromium()) {
      const built = describeConfiguredTools(entries({ executable_path: CHROMIUM_PATH }), {
        env: {},
      });
      expect(built.map((status) => status.status)).toEqual(BROWSER_TOOLS.map(() => "built"));
      expect(built[0]?.detail).toBe(`browser via Chromium at ${CHROMIUM_PATH}`);
    }
    const missing = describeConfiguredTools(entries({ executable_path: "/nonexistent/chromium" }), {
      env: {},
    });
    expect(missing).toHaveLength(BROWSER_TOOLS.length);
    for (const status of missing) {
      expect(status.status).toBe("unavailable");
      expect(status.detail).toBe(
        "not built: no Chromium executable at /nonexistent/chromium; install Chromium (apt-get install chromium) or set executable_path on the browser_navigate entry",
      );
    }
  });

  it("sandbox entries are built-in; bad options and unknown uses say what to fix", () => {
    const statuses = describeConfiguredTools(
      [
        { name: "ls", group: "file:read", use: "deerflow.sandbox.tools:ls_tool" },
        {
          name: "web_capture",
          use: "deerflow.community.browserless.tools:web_capture_tool",
          output_format: "gif",
        },
        { name: "mine", use: "mypackage.tools:mine" },
      ],
      { env: {} },
    );
    expect(statuses.map((status) => status.status)).toEqual(["built-in", "invalid", "unavailable"]);
    expect(statuses[1]?.detail).toMatch(/tools\[0\] "web_capture": output_format: /);
    expect(statuses[2]?.detail).toMatch(/^not provided by Fawn\. Use one of fawn:web_search/);
  });

  it("a keyed provider without a key is still built (each call explains the missing key)", () => {
    const [status] = describeConfiguredTools(
      [{ name: "web_search", use: "deerflow.community.serper.tools:web_search_tool" }],
      { env: {} },
    );
    expect(status).toMatchObject({
      status: "built",
      detail:
        "web_search via serper; (Serper) has no API key; set api_key: $SERPER_API_KEY in the entry or the SERPER_API_KEY environment variable",
    });
    const [short] = describeConfiguredTools(
      [{ name: "web_search", use: "fawn:web_search", provider: "ddg", proxy: "http://p:3128" }],
      { env: {} },
    );
    expect(short?.detail).toBe(
      "web_search via ddg; has options Fawn does not use (proxy); they are ignored",
    );
  });
});
