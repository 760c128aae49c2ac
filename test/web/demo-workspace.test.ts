/**
 * The offline demo as a new user meets it (`npm start` with no key), in real Chromium against a
 * real gateway and sandbox: its answer streams at a human pace; it varies its work by request
 * (code it runs, a web page that renders in the artifacts panel's sandboxed frame, an uploaded
 * CSV profiled through the bundled data-analysis skill); with Plan on it keeps a to-do list; it
 * says it is a demo and how to add a model.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWeb } from "../../web/ensure-web-build.js";
import {
  launchChromium,
  RECORD_ASSISTANT_TEXTS,
  reportPageOnFailure,
  requireChromium,
  screenshotFolder,
} from "./helpers/chromium.js";
import { startWebGateway, type WebGateway } from "./helpers/web-gateway.js";

const hasChromium = await requireChromium();

describe.skipIf(!hasChromium)("the offline demo in the workspace", { timeout: 120_000 }, () => {
  let webRoot: string;
  let shots: string;
  let shotFolder: { dir: string; remove: () => Promise<void> } | undefined;
  let browser: Browser;
  let server: WebGateway;

  beforeAll(async () => {
    webRoot = await mkdtemp(join(tmpdir(), "fawn-web-dist-"));
    shotFolder = await screenshotFolder("demo");
    shots = shotFolder.dir;
    await buildWeb(webRoot);
    browser = await launchChromium();
    // No models configured: the demo, as on a fresh `npm start`.
    server = await startWebGateway({ webRoot });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (webRoot) await rm(webRoot, { recursive: true, force: true });
    await shotFolder?.remove();
  });

  async function openPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(90_000);
    const page = await context.newPage();
    reportPageOnFailure(page, "demo");
    await page.goto(server.url);
    return page;
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.getByLabel("Message").fill(text);
    await page.getByLabel("Message").press("Enter");
  }

  const DEMO_NOTICE = "This was Fawn's offline demo model replaying a script.";

  it("writes a program, runs it in the sandbox and presents it; the answer streams", async () => {
    const page = await openPage();
    await page.evaluate(RECORD_ASSISTANT_TEXTS);
    await send(page, "Write me some code");
    await page.locator(".message.assistant").last().getByText(DEMO_NOTICE).waitFor();
    const seen = (await page.evaluate("window.seenTexts")) as string[];
    // Several growing versions of the answer were on screen before the whole of it.
    expect(seen.length).toBeGreaterThan(3);
    const run = page.locator('.tool-step[data-tool="bash"]');
    await run.locator("summary").click();
    await run.locator(".tool-result").getByText("15 primes below 50").waitFor();
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await panel.getByRole("button", { name: "sieve.py" }).click();
    await panel.getByText("def primes_below").waitFor();
    await page.context().close();
  });

  it("builds a web page that renders in a sandboxed frame, its source a click away", async () => {
    const page = await openPage();
    await send(page, "Make me a web page");
    await page.locator(".message.assistant").last().getByText(DEMO_NOTICE).waitFor();
    await page.getByRole("button", { name: "Send" }).waitFor();
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await panel.getByRole("button", { name: "primes.html" }).click();
    const frame = page.frameLocator("iframe.html-preview");
    await frame.getByRole("heading", { name: "Prime numbers below 100, by decade" }).waitFor();
    // The page's own script ran (it computes the figures) …
    await frame.getByText("25 primes, summing to 1060.").waitFor();
    // … in an opaque origin: it cannot reach the workspace.
    const handle = await page.locator("iframe.html-preview").elementHandle();
    const inner = await handle?.contentFrame();
    const reach = await inner?.evaluate(
      "(() => { try { return parent.document.title; } catch { return 'blocked'; } })()",
    );
    expect(reach).toBe("blocked");
    expect(await page.locator("iframe.html-preview").getAttribute("sandbox")).toBe("allow-scripts");
    await page.screenshot({ path: join(shots, "demo-web-page-1440.png") });
    await panel.getByRole("button", { name: "Source" }).click();
    await panel.getByText("<!doctype html>").waitFor();
    await page.context().close();
  });

  it("profiles an uploaded CSV through the data-analysis skill", async () => {
    const page = await openPage();
    await page.getByTestId("file-input").setInputFiles({
      name: "visits.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("city,visits\nLisbon,3\nKyoto,5\nOslo,4\n"),
    });
    await send(page, "What is in this file?");
    await page.locator(".message.assistant").last().getByText(DEMO_NOTICE).waitFor();
    await page.locator('.tool-step[data-tool="read_file"]').first().waitFor();
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await panel.getByRole("button", { name: "analysis.md" }).click();
    const preview = page.getByTestId("artifact-preview");
    await preview.getByText("File: visits.csv").waitFor();
    await preview.getByText("visits", { exact: false }).first().waitFor();
    await page.context().close();
  });

  it("edits and saves a delivered file; a save over a version changed meanwhile is refused, the text kept", async () => {
    const page = await openPage();
    await send(page, "Write me a short report");
    await page.locator(".message.assistant").last().getByText(DEMO_NOTICE).waitFor();
    await page.getByRole("button", { name: "Send" }).waitFor();
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await panel.getByRole("button", { name: "report.md" }).click();
    await panel.getByRole("heading", { name: "Prime numbers below 100" }).waitFor();
    await panel.getByRole("button", { name: "Edit" }).click();
    const editor = panel.getByLabel("Edit report.md");
    await editor.fill("# Primes, edited\n\nShorter now.\n");
    await panel.getByRole("button", { name: "Save" }).click();
    await panel.getByRole("heading", { name: "Primes, edited" }).waitFor();

    // Someone else saves a new version while this page edits the one it opened.
    await panel.getByRole("button", { name: "Edit" }).click();
    await editor.fill("# My version\n");
    const threadId = page.url().split("/").at(-1) ?? "";
    const url = `${server.url}/api/threads/${threadId}/artifacts/mnt/user-data/outputs/report.md`;
    const current = (await fetch(url)).headers.get("etag")?.replaceAll('"', "");
    const other = await fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "# Their version\n", expected_sha256: current }),
    });
    expect(other.status).toBe(200);
    await panel.getByRole("button", { name: "Save" }).click();
    await panel.getByRole("alert").getByText("the file changed since you opened it").waitFor();
    expect(await editor.inputValue()).toBe("# My version\n");
    expect(await (await fetch(url)).text()).toBe("# Their version\n");
    await panel
      .getByRole("button", { name: "Discard my text and load the current version" })
      .click();
    await panel.getByRole("heading", { name: "Their version" }).waitFor();
    await page.context().close();
  });

  it("plans with a to-do list when Plan is on, and ticks every item off", async () => {
    const page = await openPage();
    await page.getByRole("checkbox", { name: "Plan" }).check();
    await send(page, "Write me a short report");
    await page.locator(".message.assistant").last().getByText(DEMO_NOTICE).waitFor();
    const todos = page.locator(".todos");
    await todos.getByText("To-dos · 3/3").waitFor();
    await todos.locator(".todo.completed").getByText("Present the report").waitFor();
    await page.context().close();
  });
});
