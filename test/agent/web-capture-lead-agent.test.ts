/**
 * End to end: the reference's image_search (DuckDuckGo) and web_capture (Browserless) entries
 * give the lead agent both tools. A scripted run searches images, captures a page, and answers;
 * the screenshot lands in the thread's outputs and in the thread's `artifacts`.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeadAgentFactory } from "../../src/agent/lead-agent/lead-agent-factory.js";
import { createFawn, type Fawn } from "../../src/app/create-fawn.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { FawnPaths } from "../../src/core/paths.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { withBlockingIoGate } from "../helpers/blocking-io-gate.js";
import { within } from "../helpers/latch.js";
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
    await writeFile(join(home, "fox.json"), JSON.stringify(script));
    const { config } = parseConfig(
      {
        models: [{ name: "scripted", use: "scripted", model: "s", script: "fox.json" }],
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
      },
      { env: { FAWN_HOME: home } },
    );
    const checkpointer = new MemorySaver();
    fawn = await createFawn({
      config,
      stores: createMemoryStores(),
      checkpointer,
      agentFactory: createLeadAgentFactory({ config, checkpointer, baseDir: home, env: {} }),
      runContext: { spawnHousekeeping: () => undefined },
    });
    const instance = fawn;
    const record = await withBlockingIoGate(async () => {
      const submitted = await instance.runs.submit({
        threadId: "fox-thread",
        invocation: { input: { messages: [new HumanMessage("Show me a fox page")] } },
      });
      await within(
        submitted.task ? submitted.task.settled().then(() => undefined) : Promise.resolve(),
        15_000,
        "the run did not finish",
      );
      return submitted;
    });
    const row = await instance.stores.runs.get(record.runId);
    expect(row?.error ?? null).toBeNull();
    expect(row?.status).toBe("success");

    const saved = await checkpointer.getTuple({ configurable: { thread_id: "fox-thread" } });
    const values = saved?.checkpoint.channel_values ?? {};
    const messages = (values.messages ?? []) as BaseMessage[];
    const results = messages.filter((message) => ToolMessage.isInstance(message));
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
