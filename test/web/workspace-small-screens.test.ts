/**
 * Workspace defects seen at a phone's width and on reload, in real Chromium against a real
 * gateway: below 800 px the chat list is a drawer opened from a top bar (New chat there too),
 * Send stays on screen and nothing overflows sideways; the artifacts panel waits for the header's
 * button (which counts a new file) instead of covering the chat, closes and reopens;
 * the model and Plan choices survive a reload; an untitled chat reads as its first message;
 * "Delete?" is cancelled by Escape; Enter during a run says why nothing was sent; the message
 * box shows keyboard focus. Screenshots at 1440 and 390 px land in FAWN_WEB_SHOTS when set.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWeb } from "../../web/ensure-web-build.js";
import {
  launchChromium,
  reportPageOnFailure,
  requireChromium,
  screenshotFolder,
} from "./helpers/chromium.js";
import { startWebGateway, type WebGateway } from "./helpers/web-gateway.js";

const hasChromium = await requireChromium();

const LONG_ANSWER = Array.from({ length: 120 }, (_, index) => `word${index}`).join(" ");

const SCRIPT = [
  { match: "hang now", hang: true },
  { match: "^hello there$", turns: [{ content: "Hi there, how can I help?" }] },
  { match: "^bye there$", turns: [{ content: "Goodbye, then." }] },
  { match: "slow answer", stream_delay_ms: 60, turns: [{ content: LONG_ANSWER }] },
  {
    match: "slow tool",
    turns: [
      {
        tool_calls: [
          {
            name: "write_todos",
            args: { todos: [{ content: "Run the command", status: "in_progress" }] },
          },
        ],
      },
      {
        tool_calls: [
          { name: "bash", args: { description: "wait a while", command: "sleep 30\necho done" } },
        ],
      },
      { content: "finished" },
    ],
  },
];

describe.skipIf(!hasChromium)(
  "the workspace on small screens and across reloads",
  { timeout: 90_000 },
  () => {
    let webRoot: string;
    let shots: string;
    let shotFolder: { dir: string; remove: () => Promise<void> } | undefined;
    let browser: Browser;
    let server: WebGateway;

    beforeAll(async () => {
      webRoot = await mkdtemp(join(tmpdir(), "fawn-web-dist-"));
      shotFolder = await screenshotFolder("workspace");
      shots = shotFolder.dir;
      await buildWeb(webRoot);
      browser = await launchChromium();
      server = await startWebGateway({
        webRoot,
        config: (home) => ({
          models: [
            { name: "demo", use: "demo", model: "demo" },
            { name: "scripted", use: "scripted", model: "scripted", script: join(home, "s.json") },
            // Its script does not exist: every run on it fails.
            {
              name: "broken",
              use: "scripted",
              model: "broken",
              script: join(home, "missing.json"),
            },
          ],
        }),
      });
      await writeFile(join(server.home, "s.json"), JSON.stringify(SCRIPT));
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (webRoot) await rm(webRoot, { recursive: true, force: true });
      await shotFolder?.remove();
    });

    async function openPage(path: string, width: number): Promise<Page> {
      const context = await browser.newContext({
        viewport: { width, height: width > 800 ? 900 : 844 },
        acceptDownloads: true,
      });
      context.setDefaultTimeout(60_000);
      const page = await context.newPage();
      reportPageOnFailure(page, "workspace");
      await page.goto(`${server.url}${path}`);
      return page;
    }

    async function send(page: Page, text: string): Promise<void> {
      await page.getByLabel("Message").fill(text);
      await page.getByLabel("Message").press("Enter");
    }

    async function horizontalOverflow(page: Page): Promise<number> {
      return (await page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
      )) as number;
    }

    it("at 390 px: the drawer holds the chats, Send is on screen, the artifacts panel opens from the header", async () => {
      const page = await openPage("/", 390);
      const sidebar = page
        .getByRole("complementary")
        .filter({ has: page.getByRole("navigation", { name: "Chats" }) });
      await expect.poll(() => sidebar.isVisible()).toBe(false);
      const send_ = page.getByRole("button", { name: "Send" });
      const box = await send_.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
      expect(await horizontalOverflow(page)).toBe(0);
      await page.screenshot({ path: join(shots, "workspace-empty-390.png") });

      await send(page, "Write me a short report");
      await page
        .locator(".message.assistant")
        .getByText("Highlights: 25 primes below 100")
        .waitFor();
      const panel = page.getByRole("complementary", { name: "Artifacts" });
      // Narrow: the panel does not open over the chat by itself; the header's button counts the file.
      const files = page.getByRole("button", { name: "Artifacts (1)" });
      await files.getByText("1 new").waitFor();
      expect(await panel.count()).toBe(0);
      await page.screenshot({ path: join(shots, "workspace-report-closed-390.png") });
      await files.click();
      await panel.getByRole("button", { name: "report.md" }).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await page.screenshot({ path: join(shots, "workspace-report-390.png") });
      await panel.getByRole("button", { name: "Close the artifacts panel" }).click();
      await panel.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Artifacts (1)" }).click();
      await panel.getByRole("button", { name: "report.md" }).waitFor();

      // The menu opens the drawer with this chat in it; Escape closes it; New chat is in the top bar.
      const menu = page.getByRole("button", { name: "Open the menu" });
      expect(await menu.getAttribute("aria-expanded")).toBe("false");
      await menu.click();
      await sidebar.waitFor({ state: "visible" });
      await sidebar.locator(".thread.active").waitFor();
      await page.screenshot({ path: join(shots, "workspace-drawer-390.png") });
      await page.keyboard.press("Escape");
      await expect.poll(() => sidebar.isVisible()).toBe(false);
      await page.getByRole("button", { name: "Open the menu" }).click();
      await sidebar.getByRole("button", { name: "New chat" }).click();
      await page.waitForURL(`${server.url}/`);
      await expect.poll(() => sidebar.isVisible()).toBe(false);
      await page.getByRole("banner").getByRole("button", { name: "New chat" }).waitFor();
      await page.context().close();
    });

    it("keeps the model and Plan choices across a reload", async () => {
      const page = await openPage("/", 1440);
      await page.getByLabel("Model").selectOption("scripted");
      await page.getByRole("checkbox", { name: "Plan" }).check();
      await page.getByRole("checkbox", { name: "Sub-agents" }).check();
      await page.reload();
      await page
        .getByLabel("Model")
        .locator("option", { hasText: "scripted" })
        .waitFor({ state: "attached" });
      await expect.poll(() => page.getByLabel("Model").inputValue()).toBe("scripted");
      expect(await page.getByRole("checkbox", { name: "Plan" }).isChecked()).toBe(true);
      expect(await page.getByRole("checkbox", { name: "Sub-agents" }).isChecked()).toBe(true);
      await page.screenshot({ path: join(shots, "workspace-empty-1440.png") });
      // The run carries both choices.
      await send(page, "hello there");
      await page.waitForURL(/\/chats\//);
      const threadId = page.url().split("/").at(-1) ?? "";
      const runsOf = async () =>
        (await (await fetch(`${server.url}/api/threads/${threadId}/runs`)).json()) as {
          kwargs: { config?: { configurable?: Record<string, unknown> } };
        }[];
      await expect.poll(async () => (await runsOf()).length).toBe(1);
      expect((await runsOf())[0]?.kwargs.config?.configurable).toMatchObject({
        model_name: "scripted",
        is_plan_mode: true,
        subagent_enabled: true,
      });
      await page.context().close();
    });

    it("a model picked in a chat stays that chat's; a new chat starts on the default", async () => {
      const page = await openPage("/", 1440);
      const model = page.getByLabel("Model");
      await model.locator("option", { hasText: "scripted" }).waitFor({ state: "attached" });
      await model.selectOption("scripted");
      await send(page, "hello there");
      await page.getByText("Hi there, how can I help?").waitFor();
      const chat = page.url();
      // In the existing chat: its own pick, the default for new chats stays.
      await model.selectOption("demo");
      await page.goto(new URL("/", chat).href);
      await expect.poll(() => page.getByLabel("Model").inputValue()).toBe("scripted");
      await page.goto(chat);
      await page.getByText("Hi there, how can I help?").waitFor();
      await expect.poll(() => page.getByLabel("Model").inputValue()).toBe("demo");
      await page.context().close();
    });

    it("names an untitled chat by its first message; Enter during the run says why nothing was sent", async () => {
      const page = await openPage("/", 1440);
      await page.getByLabel("Model").selectOption("scripted");
      await send(page, "hang now");
      await page.getByRole("button", { name: "Stop" }).waitFor();
      await page.waitForURL(/\/chats\//);
      await send(page, "a second question");
      await page.getByRole("status").getByText("A run is in progress").waitFor();
      expect(await page.getByLabel("Message").inputValue()).toBe("a second question");
      // Stopped before anything named it: after a reload the sidebar shows the chat's first
      // message, not "New chat".
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByRole("button", { name: "Send" }).waitFor();
      await page.reload();
      const threadId = page.url().split("/").at(-1) ?? "";
      await page.locator(`[data-thread-id="${threadId}"]`).getByText("hang now").waitFor();
      await page.context().close();
    });

    it("keeps the partial answer on Stop; after a reload an unfinished tool step and to-do do not spin", async () => {
      const page = await openPage("/", 1440);
      await page.getByLabel("Model").selectOption("scripted");
      await send(page, "slow answer");
      await page.locator(".message.assistant").getByText("word5", { exact: false }).waitFor();
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByRole("button", { name: "Send" }).waitFor();
      await page.getByRole("status").getByText("Stopped.").waitFor();
      await page.locator(".message.assistant").getByText("word5", { exact: false }).waitFor();

      await page.getByRole("button", { name: "New chat" }).first().click();
      await page.getByRole("checkbox", { name: "Plan" }).check();
      await send(page, "slow tool");
      const step = page.locator('.tool-step[data-tool="bash"]');
      await step.locator('[aria-label="running"]').waitFor();
      // The command's lines show as lines, not as JSON with \n escapes.
      await step.locator("summary").click();
      await step.locator(".tool-arg", { hasText: "command" }).getByText("echo done").waitFor();
      expect(await step.locator(".tool-detail").textContent()).not.toContain("\\n");
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByRole("button", { name: "Send" }).waitFor();
      await page.reload();
      await step.waitFor();
      await step.locator('[aria-label="did not finish"]').waitFor();
      expect(await step.locator('[aria-label="running"]').count()).toBe(0);
      await page
        .locator(".todo", { hasText: "Run the command" })
        .getByLabel("not finished")
        .waitFor();
      await page.context().close();
    });

    it("a deleted chat's link offers a new chat; a chat whose last run failed says so after a reload", async () => {
      const page = await openPage("/", 1440);
      await page.getByLabel("Model").selectOption("broken");
      await send(page, "this run fails");
      await page.getByRole("alert").getByText("The run failed.").waitFor();
      await page.reload();
      await page.getByRole("status").getByText("The last run did not finish").waitFor();

      const threadId = page.url().split("/").at(-1) ?? "";
      const deleted = await fetch(`${server.url}/api/threads/${threadId}`, { method: "DELETE" });
      expect(deleted.status).toBeLessThan(300);
      await page.reload();
      await page.getByRole("alert").getByText("This chat does not exist or was deleted.").waitFor();
      expect(await page.getByLabel("Message").isDisabled()).toBe(true);
      await page.getByRole("button", { name: "Start a new chat" }).click();
      await page.waitForURL(`${server.url}/`);
      expect(await page.getByLabel("Message").isDisabled()).toBe(false);
      await page.context().close();
    });

    it("a message sent while the server is unreachable comes back to the box, and the page says when it is back", async () => {
      const page = await openPage("/", 1440);
      await page.getByLabel("Model").selectOption("scripted");
      await page.getByRole("button", { name: "Send" }).waitFor();
      // The network to the server is cut: every API and health call fails.
      await page.route("**/api/**", (route) => route.abort("connectionrefused"));
      await page.route("**/health", (route) => route.abort("connectionrefused"));
      await send(page, "sent while down");
      await page.getByRole("status").getByText("Cannot reach Fawn's server").waitFor();
      await page.getByRole("alert").getByText("cannot be reached").waitFor();
      expect(await page.getByRole("alert").textContent()).not.toContain("LangGraph");
      expect(await page.getByLabel("Message").inputValue()).toBe("sent while down");
      await page.unrouteAll();
      await page.getByRole("status").getByText("Connected again").waitFor();
      await page.getByLabel("Message").press("Enter");
      await page.waitForURL(/\/chats\//);
      await page.locator(".message.human").getByText("sent while down").waitFor();
      await page.context().close();
    });

    it("cuts a long chat name in the sidebar with an ellipsis", async () => {
      const long = `A very long opening line ${"that goes on and on ".repeat(4)}`.trim();
      const created = await fetch(`${server.url}/api/threads`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ metadata: { preview: long.slice(0, 80) } }),
      });
      const { thread_id: threadId } = (await created.json()) as { thread_id: string };
      const page = await openPage("/", 1440);
      const name = page.locator(`[data-thread-id="${threadId}"] .thread-title`);
      await name.waitFor();
      const shown = await page.evaluate(`(() => {
      const el = document.querySelector('[data-thread-id="${threadId}"] .thread-title');
      return { overflow: getComputedStyle(el).textOverflow, cut: el.scrollWidth > el.clientWidth };
    })()`);
      expect(shown).toEqual({ overflow: "ellipsis", cut: true });
      await page.context().close();
    });

    it("copies an answer, regenerates the latest one, edits the latest message to rerun it, branches a new chat", async () => {
      const page = await openPage("/", 1440);
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByLabel("Model").selectOption("scripted");
      await send(page, "hello there");
      const answer = page.locator(".message.assistant").last();
      await answer.getByText("Hi there, how can I help?").waitFor();
      await page.getByRole("button", { name: "Send" }).waitFor();
      await answer.getByRole("button", { name: "Copy" }).click();
      await answer.getByRole("button", { name: "Copied" }).waitFor();
      expect(await page.evaluate("navigator.clipboard.readText()")).toBe(
        "Hi there, how can I help?",
      );

      const threadId = page.url().split("/").at(-1) ?? "";
      const runs = async (): Promise<number> =>
        ((await (await fetch(`${server.url}/api/threads/${threadId}/runs`)).json()) as unknown[])
          .length;
      await answer.getByRole("button", { name: "Regenerate" }).click();
      await expect.poll(runs).toBe(2);
      await page.getByRole("button", { name: "Send" }).waitFor();
      // The turn was replaced, not appended to.
      await expect.poll(() => page.locator(".message.assistant").count()).toBe(1);
      expect(await page.locator(".message.human").count()).toBe(1);

      await page.locator(".message.human").getByRole("button", { name: "Edit" }).click();
      await page.getByLabel("Edit your message").fill("bye there");
      await page.getByRole("button", { name: "Rerun" }).click();
      await page.locator(".message.assistant").getByText("Goodbye, then.").waitFor();
      await page.getByRole("button", { name: "Send" }).waitFor();
      expect(await page.locator(".message.human").count()).toBe(1);
      await page.locator(".message.human").getByText("bye there").waitFor();
      await page.reload();
      await page.locator(".message.assistant").getByText("Goodbye, then.").waitFor();
      expect(await page.locator(".message.human").count()).toBe(1);

      // Branch: a new chat holding the conversation up to this answer; the original stays.
      const original = page.url();
      await page.locator(".message.assistant").getByRole("button", { name: "Branch" }).click();
      await page.waitForURL(
        (url) => url.toString() !== original && url.pathname.startsWith("/chats/"),
      );
      await page.locator(".message.assistant").getByText("Goodbye, then.").waitFor();
      await page.locator(".message.human").getByText("bye there").waitFor();
      expect(await page.locator(".thread").count()).toBeGreaterThanOrEqual(2);
      await page.context().close();
    });

    it("exports a chat as Markdown and JSON, and finds chats by name", async () => {
      const page = await openPage("/", 1440);
      await page.getByLabel("Model").selectOption("scripted");
      await send(page, "hello there");
      await page.locator(".message.assistant").getByText("Hi there, how can I help?").waitFor();
      await page.getByRole("button", { name: "Send" }).waitFor();
      const [markdown] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export Markdown" }).click(),
      ]);
      expect(markdown.suggestedFilename()).toMatch(/\.md$/);
      const text = await readFile(await markdown.path(), "utf8");
      expect(text).toContain("**You:**\n\n> hello there");
      expect(text).toContain("**Fawn:**\n\nHi there, how can I help?");
      const [json] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export JSON" }).click(),
      ]);
      const exported = JSON.parse(await readFile(await json.path(), "utf8")) as {
        thread_id: string;
        messages: Array<{ type: string }>;
      };
      expect(exported.thread_id).toBe(page.url().split("/").at(-1));
      expect(exported.messages.map((message) => message.type)).toEqual(["human", "ai"]);

      const search = page.getByLabel("Search chats");
      await search.fill("hello there");
      await expect.poll(() => page.locator(".thread").count()).toBeGreaterThanOrEqual(1);
      for (const title of await page.locator(".thread-title").allTextContents()) {
        expect(title.toLowerCase()).toContain("hello there");
      }
      await search.fill("no chat is called this");
      await page.getByText("No chat matches").waitFor();
      expect(await page.locator(".thread").count()).toBe(0);
      await page.context().close();
    });

    it("pins a chat to the top of the list and unpins it", async () => {
      const page = await openPage("/", 1440);
      await page.getByLabel("Model").selectOption("scripted");
      const make = async (text: string): Promise<string> => {
        await page.getByRole("button", { name: "New chat" }).first().click();
        await page.waitForURL(`${server.url}/`);
        await send(page, text);
        await page.waitForURL(/\/chats\//);
        await page.getByRole("button", { name: "Send" }).waitFor();
        return page.url().split("/").at(-1) ?? "";
      };
      const older = await make("hello there");
      const newer = await make("bye there");
      const order = async (): Promise<string[]> =>
        (await page.evaluate(
          "[...document.querySelectorAll('.thread-open')].map((el) => el.dataset.threadId)",
        )) as string[];
      const first = async (): Promise<string | undefined> => (await order())[0];
      await expect.poll(first).toBe(newer);
      const olderRow = page.locator(".thread", {
        has: page.locator(`[data-thread-id="${older}"]`),
      });
      await olderRow.getByRole("button", { name: /^Pin / }).click();
      await expect.poll(first).toBe(older);
      expect(
        await olderRow.getByRole("button", { name: /^Unpin / }).getAttribute("aria-pressed"),
      ).toBe("true");
      await page.reload();
      await expect.poll(first).toBe(older);
      await olderRow.getByRole("button", { name: /^Unpin / }).click();
      // Unpinned: no longer marked (its place is by last update again, and unpinning updated it).
      await olderRow.getByRole("button", { name: /^Pin / }).waitFor();
      expect(
        await olderRow.getByRole("button", { name: /^Pin / }).getAttribute("aria-pressed"),
      ).toBe("false");
      const stored = (await (await fetch(`${server.url}/api/threads/${older}`)).json()) as {
        metadata: Record<string, unknown>;
      };
      expect(stored.metadata.deerflow_pinned).toBe(false);
      await page.context().close();
    });

    it("cancels Delete? with Escape, and shows focus on the message box", async () => {
      const page = await openPage("/", 1440);
      await send(page, "hello");
      await page.locator(".message.assistant").getByText("offline demo model").waitFor();
      // The demo streams at a human pace: the run is over once Send is back.
      await page.getByRole("button", { name: "Send" }).waitFor();
      await page.waitForURL(/\/chats\//);
      const threadId = page.url().split("/").at(-1) ?? "";
      const row = page.locator(".thread", { has: page.locator(`[data-thread-id="${threadId}"]`) });
      await row.getByRole("button", { name: /^Delete / }).click();
      const confirm = row.getByRole("button", { name: "Delete?" });
      await confirm.waitFor();
      // The confirm takes the focus, so the keyboard user's Escape lands on it.
      await expect.poll(() => page.evaluate("document.activeElement?.textContent")).toBe("Delete?");
      await confirm.press("Escape");
      await confirm.waitFor({ state: "detached" });
      await row.getByRole("button", { name: /^Delete / }).waitFor();

      await page.getByLabel("Message").focus();
      const ring = await page.evaluate(
        "getComputedStyle(document.querySelector('.composer')).boxShadow",
      );
      expect(ring).not.toBe("none");
      await page.context().close();
    });
  },
);
