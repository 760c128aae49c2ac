/**
 * End to end: the reference's browser entries in `tools:` give the lead agent a live browser.
 * A scripted model opens a local page, clicks its link and answers; the run goes through the
 * real runtime under the blocking-IO gate (a sync call in the browser tools would fail it).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Fawn } from "../../src/app/create-fawn.js";
import { CHROMIUM_PATH, requireChromium } from "../web/helpers/chromium.js";
import { runToEnd, startScriptedLeadAgent } from "./helpers/scripted-lead-agent.js";

const hasChromium = await requireChromium();
let home: string;
let server: Server;
let site: string;
let fawn: Fawn | undefined;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-browser-lead-"));
  server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      req.url === "/next"
        ? "<title>Next</title><p>The second page.</p>"
        : '<title>Start</title><a href="/next">Onward</a>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await fawn?.close();
  fawn = undefined;
  await new Promise((resolve) => server.close(resolve));
  await rm(home, { recursive: true, force: true });
});

describe.runIf(hasChromium)("browser tools in the lead agent", () => {
  it("a scripted run navigates, clicks and answers from the page", async () => {
    const script = [
      {
        match: "browse",
        turns: [
          { tool_calls: [{ name: "browser_navigate", args: { url: `${site}/` } }] },
          { tool_calls: [{ name: "browser_click", args: { ref: 1 } }] },
          { content: "The second page says hello." },
        ],
      },
    ];
    const use = (tool: string) =>
      `deerflow.community.browser_automation.tools:browser_${tool}_tool`;
    const agent = await startScriptedLeadAgent({
      home,
      script,
      tools: [
        {
          name: "browser_navigate",
          group: "browser",
          use: use("navigate"),
          executable_path: CHROMIUM_PATH,
          allow_private_addresses: true,
        },
        { name: "browser_click", group: "browser", use: use("click") },
      ],
    });
    fawn = agent.fawn;
    const run = await runToEnd(agent, "browser-thread", "Please browse the site", {
      timeoutMs: 30_000,
    });
    expect(run.error).toBeNull();
    expect(run.status).toBe("success");
    const results = run.toolResults;
    const messages = run.messages;
    expect(results.map((message) => message.name)).toEqual(["browser_navigate", "browser_click"]);
    expect(String(results[0]?.content)).toMatch(/Title: Start\n\n.*\n\[1\] a: Onward/);
    expect(String(results[1]?.content)).toMatch(
      /^Clicked element \[1\]\.\n\nURL: .*\/next\nTitle: Next/,
    );
    expect(String(messages.at(-1)?.content)).toBe("The second page says hello.");
  });
});
