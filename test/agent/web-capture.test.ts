/**
 * web_capture against a local fake of Browserless: the screenshot request (options, viewport,
 * waits, token), the image written atomically under the thread's outputs and presented as an
 * artifact, names made safe and never overwriting, the target URL guarded, and failures as
 * `Error: …` answers without the token.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfiguredTools } from "../../src/agent/tools/configured-tools.js";
import { FawnPaths } from "../../src/core/paths.js";
import {
  PNG_BYTES,
  PROVIDER_TEST_KEY,
  type ProviderFixture,
  startProviderFixture,
} from "./web-provider-fixture.js";

let fixture: ProviderFixture;
let home: string;
let paths: FawnPaths;
const scope = { userId: "default", threadId: "capture-thread" };
const runConfig = { configurable: { thread_id: scope.threadId } };

beforeAll(async () => {
  fixture = await startProviderFixture();
  home = await mkdtemp(join(tmpdir(), "fawn-capture-"));
  paths = new FawnPaths(home);
});

afterAll(async () => {
  await fixture.close();
  await rm(home, { recursive: true, force: true });
});

function captureTool(entry: Record<string, unknown> = {}): StructuredToolInterface {
  const [tool] = createConfiguredTools(
    [
      {
        name: "web_capture",
        use: "deerflow.community.browserless.tools:web_capture_tool",
        base_url: `${fixture.url}/ok/browserless`,
        ...entry,
      },
    ],
    {
      env: {},
      paths,
      fetchSeams: { resolve: async () => [{ address: "93.184.215.14", family: 4 }] },
    },
  );
  if (!tool) throw new Error("no tool built");
  return tool;
}

/** Calls the tool as the agent does (a tool call), returning the artifacts and the message. */
async function capture(
  tool: StructuredToolInterface,
  args: Record<string, unknown>,
): Promise<{ artifacts: string[]; text: string }> {
  const answer: unknown = await tool.invoke(
    { name: tool.name, args, id: "call-1", type: "tool_call" },
    runConfig,
  );
  if (answer instanceof Command) {
    const update = answer.update as { artifacts: string[]; messages: Array<{ content: unknown }> };
    return { artifacts: update.artifacts, text: String(update.messages[0]?.content) };
  }
  const content =
    typeof answer === "object" && answer && "content" in answer ? answer.content : answer;
  return { artifacts: [], text: String(content) };
}

describe("web_capture with Browserless", () => {
  it("posts the screenshot options, writes the PNG under outputs and presents it", async () => {
    const tool = captureTool({
      token: PROVIDER_TEST_KEY,
      full_page: false,
      viewport_width: 1024,
      viewport_height: 768,
      wait_for_selector: "main",
      best_attempt: true,
    });
    const { artifacts, text } = await capture(tool, { url: "https://fawn.test/dashboard" });
    expect(artifacts).toEqual(["/mnt/user-data/outputs/fawn.test-dashboard.png"]);
    expect(text).toBe(
      "Captured screenshot of https://fawn.test/dashboard: /mnt/user-data/outputs/fawn.test-dashboard.png",
    );
    const outputs = paths.threadPaths(scope).outputsDir;
    expect(await readFile(join(outputs, "fawn.test-dashboard.png"))).toEqual(PNG_BYTES);
    const request = fixture.last("/browserless/screenshot");
    expect(request.query.get("token")).toBe(PROVIDER_TEST_KEY);
    expect(JSON.parse(request.body)).toEqual({
      url: "https://fawn.test/dashboard",
      options: { fullPage: false, type: "png" },
      viewport: { width: 1024, height: 768 },
      waitForSelector: { selector: "main", timeout: 5000 },
      bestAttempt: true,
    });
  });

  it("takes the model's name without folders, with the format's extension, never overwriting", async () => {
    const tool = captureTool({ quality: 80 });
    const first = await capture(tool, {
      url: "https://fawn.test/",
      filename: "../../etc/shot.png",
      output_format: "jpeg",
    });
    const second = await capture(tool, {
      url: "https://fawn.test/",
      filename: "shot",
      output_format: "jpeg",
    });
    expect(first.artifacts).toEqual(["/mnt/user-data/outputs/shot.jpg"]);
    expect(second.artifacts).toEqual(["/mnt/user-data/outputs/shot-2.jpg"]);
    expect(JSON.parse(fixture.last("/browserless/screenshot").body).options).toEqual({
      fullPage: true,
      type: "jpeg",
      quality: 80,
    });
    const names = await readdir(paths.threadPaths(scope).outputsDir);
    expect(names.filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses a private target before calling Browserless", async () => {
    const before = fixture.requests.length;
    const { artifacts, text } = await capture(captureTool(), { url: "http://169.254.169.254/" });
    expect(artifacts).toEqual([]);
    expect(text).toMatch(/^Error: Refusing to fetch http:\/\/169\.254\.169\.254/);
    expect(fixture.requests.length).toBe(before);
  });

  it("a refused token, a non-image answer and a 5xx are Error answers, nothing written", async () => {
    const rejected = await capture(
      captureTool({ base_url: `${fixture.url}/401/browserless`, token: PROVIDER_TEST_KEY }),
      { url: "https://fawn.test/a" },
    );
    expect(rejected.text).toMatch(
      /^Error: Browserless answered HTTP 401: .*check the Browserless token/,
    );
    expect(rejected.text).not.toContain(PROVIDER_TEST_KEY);
    const html = await capture(captureTool({ base_url: `${fixture.url}/ok/browserless-html` }), {
      url: "https://fawn.test/b",
    });
    expect(html.text).toBe(
      "Error: Browserless answered text/html instead of an image; check base_url points at a Browserless server.",
    );
    const down = await capture(captureTool({ base_url: `${fixture.url}/500/browserless` }), {
      url: "https://fawn.test/c",
    });
    expect(down.text).toMatch(/^Error: Browserless answered HTTP 500/);
    const names = await readdir(paths.threadPaths(scope).outputsDir);
    expect(
      names.some((name) => name.startsWith("fawn.test-a") || name.startsWith("fawn.test-b")),
    ).toBe(false);
  });
});
