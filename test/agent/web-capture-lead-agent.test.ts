/**
 * End to end: the reference's image_search (DuckDuckGo) and web_capture (Browserless) entries
 * give the lead agent both tools. A scripted run searches images, captures a page, and answers;
 * the screenshot lands in the thread's outputs and in the thread's `artifacts`.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Fawn } from "../../src/app/create-fawn.js";
import { FawnPaths } from "../../src/core/paths.js";
import { runToEnd, startScriptedLeadAgent } from "./helpers/scripted-lead-agent.js";
import { PNG_BYTES, type ProviderFixture, startProviderFixture } from "./web-provider-fixture.js";

let home: string;
let fixture: ProviderFixture;
let fawn: Fawn | undefined;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "fawn-capture-lead-"));
  fixture = await startProviderFixture();
});

afterEach(async () => {
  await fawn?.close();
  fawn = undefined;
  await fixture.close();
  await rm(home, { recursive: true, force: true });
});

describe("image_search and web_capture in the lead agent", () => {
  it("a scripted run finds images, captures a page, and the capture is an artifact", async () => {
    const script = [
      {
        match: "fox",
        turns: [
          { tool_calls: [{ name: "image_search", args: { query: "fox kit" } }] },
          {
            tool_calls: [
              {
                name: "web_capture",
                args: { url: `${fixture.url}/page`, filename: "fox-page" },
              },
            ],
          },
          { content: "Here is the page and some fox images." },
        ],
      },
    ];
    const agent = await startScriptedLeadAgent({
      home,
      script,
      tools: [
        {
          name: "image_search",
          group: "web",
          use: "deerflow.community.image_search.tools:image_search_tool",
          base_url: `${fixture.url}/ok/ddg-images`,
          max_results: 5,
        },
        {
          name: "web_capture",
          group: "web",
          use: "deerflow.community.browserless.tools:web_capture_tool",
          base_url: `${fixture.url}/ok/browserless`,
          // The captured page is the local fake, so this entry must allow private networks.
          allow_private_addresses: true,
          output_format: "png",
        },
      ],
    });
    fawn = agent.fawn;
    const run = await runToEnd(agent, "fox-thread", "Show me a fox page");
    expect(run.error).toBeNull();
    expect(run.status).toBe("success");
    const results = run.toolResults;
    const values = run.values;
    expect(results.map((message) => message.name)).toEqual(["image_search", "web_capture"]);
    expect(String(results[0]?.content)).toMatch(/^Image results for "fox kit":\n\n1\. Fox kit/);
    expect(String(results[1]?.content)).toBe(
      `Captured screenshot of ${fixture.url}/page: /mnt/user-data/outputs/fox-page.png`,
    );
    expect(values.artifacts).toEqual(["/mnt/user-data/outputs/fox-page.png"]);
    const outputs = new FawnPaths(home).threadPaths({
      userId: "default",
      threadId: "fox-thread",
    }).outputsDir;
    expect(await readFile(join(outputs, "fox-page.png"))).toEqual(PNG_BYTES);
  });
});
