/**
 * The chat list, uploads and the artifacts panel in real Chromium against a real `fawn serve`
 * with a scripted model: a rename shows in the open chat's header at once, persists over a
 * reload and is what search finds; older chats load a page at a time with pinned chats first;
 * files dropped or pasted onto the chat upload with progress shown (and can be cancelled) and the
 * run reads them; uploaded images and PDFs and delivered code preview in the panel (code
 * highlighted); the panel resizes by drag and by keyboard and remembers it, opens a file in a new
 * tab and copies it; a file being written shows its text before the run ends; a panel of uploads
 * alone comes back from the header's button; below 800 px the panel does not open over the chat
 * by itself, the header's button counts new files instead. axe finds nothing serious;
 * screenshots at 1440 and 390 px.
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
          {
            name: "write_file",
            args: {
              description: "the code",
              path: "/mnt/user-data/outputs/fizz.py",
              content: PYTHON,
            },
          },
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
    match: "read my notes",
    turns: [
      {
        tool_calls: [
          {
            name: "read_file",
            args: { description: "the notes", path: "/mnt/user-data/uploads/notes.txt" },
          },
        ],
      },
      { content: "I read your notes." },
    ],
  },
  { match: "look at the pictures", turns: [{ content: "Nice pictures." }] },
  {
    match: "^write slowly$",
    stream_delay_ms: 120,
    stream_tool_args: true,
    turns: [
      {
        tool_calls: [
          {
            name: "write_file",
            args: {
              description: "the story",
              path: "/mnt/user-data/outputs/story.txt",
              content: STORY,
            },
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

/** The server's per-file upload limit here (small, so a test can go over it). */
const MAX_FILE_SIZE = 8 * 1024 * 1024;

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
        uploads: { max_file_size: MAX_FILE_SIZE },
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
    // The open chat's header (and the tab's title) follow at once, without a reload.
    await page.getByRole("heading", { level: 1, name: "Weekend trip plan" }).waitFor();
    await expect.poll(() => page.title()).toBe("Weekend trip plan · Fawn");
    await page.screenshot({ path: shot("renamed-1440") });

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
    const ids: (string | null)[] = [];
    for (const button of await chats.locator("button.thread-open").all())
      ids.push(await button.getAttribute("data-thread-id"));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toBe(created[0]);
    await page.screenshot({ path: shot("older-chats-1440") });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  /** Drops files on the page as a user dragging them from the desktop would. */
  async function dropFiles(page: Page, files: { name: string; type: string; text: string }[]) {
    // The drop listeners come with the chat's lazy chunk.
    await page.locator('textarea[name="message"]').waitFor();
    const transfer = await page.evaluateHandle(`(() => {
      const data = new DataTransfer();
      for (const file of ${JSON.stringify(files)})
        data.items.add(new File([file.text], file.name, { type: file.type }));
      return data;
    })()`);
    const target = page.getByTestId("messages");
    await target.dispatchEvent("dragenter", { dataTransfer: transfer });
    await target.dispatchEvent("dragover", { dataTransfer: transfer });
    await page.getByText("Drop files to attach them to your message").waitFor();
    await target.dispatchEvent("drop", { dataTransfer: transfer });
  }

  /** Pastes binary files (a screenshot) into the message box. */
  async function pasteFiles(page: Page, files: { name: string; type: string; base64: string }[]) {
    // The chat is a lazy chunk: its message box (and its paste handler) may not be there yet.
    await page.locator('textarea[name="message"]').waitFor();
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      for (const file of ${JSON.stringify(files)}) {
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], file.name, { type: file.type }));
      }
      document.querySelector('textarea[name="message"]').dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    })()`);
  }

  it("uploads a dropped file with its progress shown; the run reads it", async () => {
    const { page, context } = await openPage();
    await dropFiles(page, [{ name: "notes.txt", type: "text/plain", text: "Buy oat milk.\n" }]);
    const chips = page.getByRole("list", { name: "Attached files" });
    await chips.getByText("notes.txt").waitFor();
    await page
      .getByText("Drop files to attach them to your message")
      .waitFor({ state: "detached" });
    // Slow the upload down so its progress can be seen.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 400,
      downloadThroughput: -1,
      uploadThroughput: 64 * 1024,
    });
    await send(page, "read my notes");
    await page.locator("progress.upload-progress").first().waitFor();
    await page.screenshot({ path: shot("upload-progress-1440") });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.locator(".message.human .chip").getByText("notes.txt").waitFor();
    await page.locator(".message.assistant").getByText("I read your notes.").waitFor();
    const read = page.locator('.tool-step[data-tool="read_file"]');
    await read.locator("summary").click();
    await read.locator(".tool-result").getByText("Buy oat milk.").waitFor();
    // The uploaded file opens from the panel, through the artifact route.
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await panel
      .getByRole("region", { name: "Uploaded files" })
      .getByRole("button", { name: "notes.txt" })
      .click();
    await panel.getByTestId("artifact-preview").getByText("Buy oat milk.").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    // A panel of uploads alone closes and comes back from the header's button.
    await panel.getByRole("button", { name: "Close the artifacts panel" }).click();
    await panel.waitFor({ state: "detached" });
    await page.screenshot({ path: shot("uploads-closed-1440") });
    await page.getByRole("button", { name: "Artifacts (1)" }).click();
    await panel
      .getByRole("region", { name: "Uploaded files" })
      .getByRole("button", { name: "notes.txt" })
      .waitFor();
    await context.close();
  });

  it("cancels an upload: nothing is sent, the message and its file are back in the box", async () => {
    const { page, context } = await openPage();
    await page.getByTestId("file-input").setInputFiles({
      name: "big.bin",
      mimeType: "application/octet-stream",
      buffer: Buffer.alloc(4 * 1024 * 1024, 7),
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 200,
      downloadThroughput: -1,
      uploadThroughput: 32 * 1024,
    });
    await send(page, "hello there");
    await page.getByRole("progressbar", { name: "Uploading big.bin" }).waitFor();
    await page.getByRole("button", { name: "Cancel upload" }).click();
    await page
      .getByText("The upload was cancelled; your message and files are back in the box.")
      .waitFor();
    expect(await page.getByLabel("Message").inputValue()).toBe("hello there");
    await page.getByRole("list", { name: "Attached files" }).getByText("big.bin").waitFor();
    await context.close();
  });

  it("says why a file too large is not attached", async () => {
    const limits = await api<{ max_file_size: number }>(
      `/threads/${crypto.randomUUID()}/uploads/limits`,
    );
    expect(limits.max_file_size).toBe(MAX_FILE_SIZE);
    const { page, context } = await openPage();
    await page.getByTestId("file-input").setInputFiles({
      name: "huge.bin",
      mimeType: "application/octet-stream",
      buffer: Buffer.alloc(MAX_FILE_SIZE + 1, 1),
    });
    await page
      .getByRole("alert")
      .getByText("huge.bin is larger than 8.0 MB, the most one file can be; it was not attached.")
      .waitFor();
    expect(await page.getByRole("list", { name: "Attached files" }).count()).toBe(0);
    await context.close();
  });

  it("previews pasted images and an uploaded PDF in the panel", async () => {
    const { page, context } = await openPage();
    const png = PNG.toString("base64");
    await pasteFiles(page, [{ name: "image.png", type: "image/png", base64: png }]);
    await pasteFiles(page, [{ name: "image.png", type: "image/png", base64: png }]);
    const chips = page.getByRole("list", { name: "Attached files" });
    await chips.getByText("pasted-image-1.png").waitFor();
    await chips.getByText("pasted-image-2.png").waitFor();
    await page.getByTestId("file-input").setInputFiles({
      name: "brochure.pdf",
      mimeType: "application/pdf",
      buffer: PDF,
    });
    await send(page, "look at the pictures");
    await page.locator(".message.assistant").getByText("Nice pictures.").waitFor();
    const uploads = page.getByRole("region", { name: "Uploaded files" });
    await uploads.getByRole("button", { name: "pasted-image-2.png" }).click();
    const image = page
      .getByTestId("artifact-preview")
      .getByRole("img", { name: "pasted-image-2.png" });
    await image.waitFor();
    await expect
      .poll(() => page.evaluate('document.querySelector(".artifact-image").naturalWidth'))
      .toBe(1);
    await uploads.getByRole("button", { name: "brochure.pdf" }).click();
    const pdf = page.locator("object.artifact-pdf");
    await pdf.waitFor();
    const pdfUrl = `${server.url}${(await pdf.getAttribute("data")) ?? ""}`;
    const served = await fetch(pdfUrl);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await served.arrayBuffer()).equals(PDF)).toBe(true);
    await page.screenshot({ path: shot("pdf-preview-1440") });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it("highlights delivered code; the panel resizes, remembers it, opens a new tab and copies", async () => {
    const { page, context } = await openPage();
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await send(page, "show me code");
    await page.locator(".message.assistant").getByText("Here is the code.").waitFor();
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await panel.getByRole("button", { name: "fizz.py" }).click();
    const code = panel.locator("pre.artifact-code code.hljs");
    await code.waitFor();
    await code.locator(".hljs-keyword", { hasText: "def" }).first().waitFor();
    await code.locator(".hljs-string").first().waitFor();
    expect(await code.textContent()).toBe(PYTHON);
    await page.screenshot({ path: shot("code-1440") });

    // Copy puts the file's text on the clipboard.
    await panel.getByRole("button", { name: "Copy" }).click();
    await panel.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(PYTHON);

    // Open in a new tab: the artifact route, in a tab of its own.
    const [tab] = await Promise.all([
      context.waitForEvent("page"),
      panel.getByRole("link", { name: "Open in a new tab" }).click(),
    ]);
    await tab.waitForLoadState();
    expect(tab.url()).toContain("/artifacts/mnt/user-data/outputs/fizz.py");
    await tab.close();

    // Resize: by the keyboard, then by dragging; the width is kept over a reload.
    const handle = page.getByRole("separator", { name: "Resize the artifacts panel" });
    const widthOf = async () => Math.round((await panel.boundingBox())?.width ?? 0);
    const before = await widthOf();
    await handle.focus();
    await handle.press("ArrowLeft");
    await handle.press("ArrowLeft");
    await expect.poll(widthOf).toBe(before + 64);
    const box = await handle.boundingBox();
    const x = (box?.x ?? 0) + (box?.width ?? 0) / 2;
    const y = (box?.y ?? 0) + 200;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 100, y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(widthOf).toBe(before + 64 - 100);
    expect(await handle.getAttribute("aria-valuenow")).toBe(String(before - 36));
    await page.reload();
    await panel.getByRole("button", { name: "fizz.py" }).waitFor();
    await expect.poll(widthOf).toBe(before - 36);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it("shows a file as the run writes it, before the run ends", async () => {
    const { page, context } = await openPage();
    await page.evaluate(`
      window.liveTexts = [];
      new MutationObserver(() => {
        const shown = document.querySelector('[data-live="writing"] code');
        const text = shown ? shown.textContent : null;
        if (text && window.liveTexts.at(-1) !== text) window.liveTexts.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    `);
    await send(page, "write slowly");
    const live = page.locator('[data-live="writing"]');
    await live
      .getByText("The run is writing story.txt; this is what it has written so far.")
      .waitFor();
    await live.getByText("line3 of the story", { exact: false }).waitFor();
    // Still running: Stop is there, and only part of the file has arrived.
    expect(await page.getByRole("button", { name: "Stop" }).isVisible()).toBe(true);
    const partial = (await live.locator("code").textContent()) ?? "";
    expect(STORY.startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(STORY.length);
    await page.screenshot({ path: shot("live-write-1440") });
    // When the write is done the preview is the file itself, read from the server.
    await page.locator(".message.assistant").getByText("The story is written.").waitFor();
    const preview = page.getByTestId("artifact-preview");
    await expect.poll(() => preview.getAttribute("data-kind")).toBe("text");
    expect(await preview.locator("code").textContent()).toBe(STORY);
    const seen = (await page.evaluate("window.liveTexts")) as string[];
    expect(seen.length).toBeGreaterThan(2);
    for (const text of seen) expect(STORY.startsWith(text)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it("at 390 px: the panel stacks under the chat, nothing overflows sideways", async () => {
    const { page, context } = await openPage("/", 390);
    await send(page, "show me code");
    await page.locator(".message.assistant").getByText("Here is the code.").waitFor();
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await page.getByRole("button", { name: "Artifacts (1)" }).click();
    await panel.getByRole("button", { name: "fizz.py" }).click();
    await panel.locator("pre.artifact-code code.hljs").waitFor();
    expect(
      await page.getByRole("separator", { name: "Resize the artifacts panel" }).isVisible(),
    ).toBe(false);
    expect(
      await page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
      ),
    ).toBe(0);
    await page.screenshot({ path: shot("code-390") });
    await page
      .getByTestId("file-input")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("x") });
    await page.getByRole("list", { name: "Attached files" }).getByText("notes.txt").waitFor();
    await page.screenshot({ path: shot("attached-390") });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it("at 390 px: a file being written leaves the chat in view; the header's button counts it", async () => {
    const { page, context } = await openPage("/", 390);
    await send(page, "write slowly");
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    const files = page.getByRole("button", { name: "Artifacts (1)" });
    await files.getByText("1 new").waitFor();
    // Still writing, and the panel has not opened over the chat.
    expect(await page.getByRole("button", { name: "Stop" }).isVisible()).toBe(true);
    expect(await panel.count()).toBe(0);
    expect(await page.getByTestId("messages").isVisible()).toBe(true);
    await page.screenshot({ path: shot("writing-closed-390") });
    // Opened while the run writes: the file as written so far.
    await files.click();
    await panel
      .locator('[data-live="writing"]')
      .getByText("line1 of the story", { exact: false })
      .waitFor();
    await page.screenshot({ path: shot("writing-open-390") });
    await page.locator(".message.assistant").getByText("The story is written.").waitFor();
    await panel.getByRole("button", { name: "Close the artifacts panel" }).click();
    await panel.waitFor({ state: "detached" });
    // Seen once opened: no longer counted as new.
    await files.waitFor();
    expect(await files.getByText("1 new").count()).toBe(0);
    await context.close();
  });

  it("at 390 px: a panel of uploads alone opens from the header's button, closes and comes back", async () => {
    const { page, context } = await openPage("/", 390);
    await page
      .getByTestId("file-input")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Eggs.\n") });
    await page.getByRole("list", { name: "Attached files" }).getByText("notes.txt").waitFor();
    await send(page, "read my notes");
    await page.locator(".message.assistant").getByText("I read your notes.").waitFor();
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    const files = page.getByRole("button", { name: "Artifacts (1)" });
    for (let round = 0; round < 2; round++) {
      await files.click();
      await panel
        .getByRole("region", { name: "Uploaded files" })
        .getByRole("button", { name: "notes.txt" })
        .waitFor();
      if (round === 0) await page.screenshot({ path: shot("uploads-only-390") });
      await panel.getByRole("button", { name: "Close the artifacts panel" }).click();
      await panel.waitFor({ state: "detached" });
    }
    await files.waitFor();
    await context.close();
  });
});
