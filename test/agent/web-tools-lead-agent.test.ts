/**
 * End to end: `tools:` entries in the config give the lead agent web_search and web_fetch.
 * A scripted model searches (SearXNG impersonated by a local server), reads the first page
 * with web_fetch, and answers; the run goes through the real runtime (createFawn → worker →
 * journal) and ends in success with the tool results in the thread state.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import type { Fawn } from "../../src/app/create-fawn.js";
import { servedAgent } from "../../src/cli/served-agent.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { rootLogger } from "../../src/core/logger.js";
import {
  runToEnd,
  type ScriptedLeadAgent,
  startScriptedLeadAgent,
} from "./helpers/scripted-lead-agent.js";
import { startWebFixture, type WebFixture } from "./web-fixture-server.js";

let home: string;
let fixture: WebFixture;
let fawn: Fawn | undefined;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-web-lead-"));
  fixture = await startWebFixture();
});

afterEach(async () => {
  await fawn?.close();
  fawn = undefined;
  await fixture.close();
  await rm(home, { recursive: true, force: true });
});

function startResearchAgent(): Promise<ScriptedLeadAgent> {
  return startScriptedLeadAgent({
    home,
    script: [
      {
        match: "research",
        turns: [
          {
            content: "Searching first.",
            tool_calls: [{ name: "web_search", args: { query: "fawn" } }],
          },
          { tool_calls: [{ name: "web_fetch", args: { url: `${fixture.url}/page.html` } }] },
          { content: "Fawn reads pages, says the article." },
        ],
      },
    ],
    tools: [
      {
        name: "web_search",
        group: "web",
        use: "deerflow.community.searxng.tools:web_search_tool",
        base_url: `${fixture.url}/searx`,
        max_results: 2,
      },
      // The page lives on 127.0.0.1, so this entry must allow private networks.
      { name: "web_fetch", group: "web", use: "fawn:web_fetch", allow_private_network: true },
      { name: "ls", group: "file:read", use: "deerflow.sandbox.tools:ls_tool" },
    ],
  });
}

describe("web tools in the lead agent", () => {
  it("a scripted run calls web_search then web_fetch and answers from the page", async () => {
    const agent = await startResearchAgent();
    fawn = agent.fawn;
    const run = await runToEnd(agent, "web-thread", "Please research fawns");
    expect(run.error).toBeNull();
    expect(run.status).toBe("success");
    expect(run.toolResults.map((message) => message.name)).toEqual(["web_search", "web_fetch"]);
    const [searchResult, fetchResult] = run.toolResults.map((message) => String(message.content));
    expect(searchResult).toBe(
      [
        'Search results for "fawn":',
        "",
        "1. Result 1 & more",
        "   https://example.com/result-1",
        "   Snippet number 1 about fawns.",
        "",
        "2. Result 2 & more",
        "   https://example.com/result-2",
        "   Snippet number 2 about fawns.",
      ].join("\n"),
    );
    expect(fetchResult).toMatch(
      /^# Fawn & the Web\n\nSource: .*\/page\.html \(text\/html\)\n\n# Fawn reads pages/,
    );
    expect(String(run.messages.at(-1)?.content)).toBe("Fawn reads pages, says the article.");

    const events = await agent.fawn.stores.events.listEvents(run.threadId, run.runId, {});
    const types = events.map((event) => event.event_type);
    expect(types.filter((type) => type === "llm.tool.result")).toHaveLength(2);
    expect(types.filter((type) => type === "run.terminal")).toHaveLength(1);
    expect(fixture.requests.map((request) => request.path)).toEqual([
      "/searx/search",
      "/page.html",
    ]);
  });

  it("an unknown tool use fails at startup (serve) and when the factory is built, naming the entry", async () => {
    const { config } = parseConfig(
      { tools: [{ name: "crawler", use: "acme.tools:crawler" }] },
      { env: { FAWN_HOME: home } },
    );
    expect(() => createLeadAgentFactory({ config, env: {} })).toThrow(
      /Unknown tool "use: acme.tools:crawler" in tools\[0\] "crawler"/,
    );
    // `fawn serve` builds the factory lazily, so it checks the entries when it starts.
    expect(() => servedAgent(config, rootLogger)).toThrow(/Unknown tool "use: acme.tools:crawler"/);
  });
});
