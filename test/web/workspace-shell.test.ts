/**
 * The workspace shell in real Chromium against a real `fawn serve`: the language switch turns
 * the shell and the Teams page Chinese at once and survives a reload (the chat's own text too,
 * once its files have left the unconverted list); the shortcuts (⌘/Ctrl+K palette, new chat,
 * sidebar, settings, `/` to the message box, `?` for the list) and the command palette (filter,
 * arrows, Enter, Escape, focus handed back, chats by title), Ctrl+B on the 390 px drawer; and one pass with the keyboard only:
 * Tab to the message box, send, stop a slow run, open the file a run presented, open settings.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchChromium,
  reportPageOnFailure,
  requireChromium,
  screenshotFolder,
} from "./helpers/chromium.js";
import { focused, tabTo } from "./helpers/keyboard.js";
import { sharedWebBuild } from "./helpers/shared-web-build.js";
import { TeamsApiStub } from "./helpers/teams-api-stub.js";
import { areaConverted } from "./helpers/unconverted-ui-files.js";
import { startWebGateway, type WebGateway } from "./helpers/web-gateway.js";

const hasChromium = await requireChromium();

const NOTES = "/mnt/user-data/outputs/notes.md";
const LONG_STORY = Array.from({ length: 200 }, (_, index) => `story${index}`).join(" ");
const SCRIPT = [
  { match: "^hello there$", turns: [{ content: "Hi there, how can I help?" }] },
  { match: "tell a slow story", stream_delay_ms: 80, turns: [{ content: LONG_STORY }] },
  {
    match: "write the notes",
    turns: [
      {
        tool_calls: [
          {
            name: "write_file",
            args: {
              description: "the notes",
              path: NOTES,
              content: "# Meeting notes\n\nAll agreed.",
            },
          },
        ],
      },
      { tool_calls: [{ name: "present_files", args: { filepaths: [NOTES] } }] },
      { content: "The notes are ready." },
    ],
  },
];

describe.skipIf(!hasChromium)("the workspace shell", { timeout: 120_000 }, () => {
  let browser: Browser;
  let server: WebGateway;
  let shots: { dir: string; remove: () => Promise<void> };

  beforeAll(async () => {
    const webRoot = await sharedWebBuild();
    shots = await screenshotFolder("shell");
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
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await shots?.remove();
  });

  async function openPage(path: string, width = 1440): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width, height: width > 800 ? 900 : 844 },
      locale: "en-US",
    });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    reportPageOnFailure(page, "shell");
    await page.goto(`${server.url}${path}`);
    await page.locator(".workspace-nav").waitFor({ state: "attached" });
    return page;
  }

  /** Nothing has the focus (the page's body does), as after a click on empty space. */
  const blur = (page: Page) => page.evaluate("document.activeElement?.blur()");

  const sidebar = (page: Page) => page.getByRole("complementary", { name: /Sidebar|侧边栏/ });

  it("switches to Chinese at once, keeps it over a reload, and back", async () => {
    for (const width of [1440, 390]) {
      const page = await openPage("/", width);
      if (width < 800) await page.getByRole("button", { name: "Open the menu" }).click();
      await sidebar(page).getByRole("link", { name: "Settings" }).waitFor();
      await page.screenshot({ path: join(shots.dir, `shell-en-${width}.png`) });
      await sidebar(page).getByLabel("Language").selectOption("zh-CN");
      await sidebar(page).getByRole("link", { name: "设置" }).waitFor();
      await sidebar(page).getByRole("button", { name: "新对话" }).waitFor();
      expect(await page.evaluate("document.documentElement.lang")).toBe("zh-CN");
      await page.reload();
      if (width < 800) await page.getByRole("button", { name: "打开菜单" }).click();
      await sidebar(page).getByRole("link", { name: "定时任务" }).waitFor();
      expect(await sidebar(page).getByLabel("语言").inputValue()).toBe("zh-CN");
      await page.screenshot({ path: join(shots.dir, `shell-zh-${width}.png`) });
      if (areaConverted("web/src/chat/")) {
        // The chat speaks Chinese too: its Send button and message box are not English.
        const chat = page.locator(".chat");
        expect(await chat.getByRole("button", { name: "Send" }).count()).toBe(0);
        expect((await chat.textContent()) ?? "").toMatch(/\p{Script=Han}/u);
      }
      // The Teams page (its plugin played by the stub) speaks Chinese as well.
      await new TeamsApiStub().install(page);
      await page.goto(`${server.url}/teams`);
      await page.getByRole("form", { name: "新建团队" }).getByText("添加成员").waitFor();
      if (width < 800) await page.getByRole("button", { name: "打开菜单" }).click();
      await sidebar(page).getByLabel("语言").selectOption("en");
      await sidebar(page).getByRole("link", { name: "Settings" }).waitFor();
      await page.context().close();
    }
  });

  it("opens the palette with Ctrl+K anywhere; it filters, moves with arrows, runs with Enter", async () => {
    const page = await openPage("/");
    await page.getByLabel("Message").waitFor();
    await page.getByLabel("Message").fill("hello there");
    await page.getByLabel("Message").press("Enter");
    await page.getByText("Hi there, how can I help?").waitFor();
    await page.locator(".thread").first().waitFor();
    const title = (
      (await page.locator(".thread .thread-title").first().textContent()) ?? ""
    ).trim();

    // From inside the message box: the palette opens, with the focus in its search box.
    await page.getByLabel("Message").focus();
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await palette.waitFor();
    const search = palette.getByRole("combobox");
    expect((await focused(page)).role).toBe("combobox");
    const options = palette.getByRole("option");
    expect(await options.first().getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowDown");
    expect(await options.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await search.getAttribute("aria-activedescendant")).toBe(
      await options.nth(1).getAttribute("id"),
    );
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    expect(await options.last().getAttribute("aria-selected")).toBe("true");
    await page.screenshot({ path: join(shots.dir, "palette-1440.png") });

    // Escape closes it and gives the focus back to the message box.
    await page.keyboard.press("Escape");
    await palette.waitFor({ state: "detached" });
    expect((await focused(page)).name).toBe("Message");

    // A chat by its title, then a page by name.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("agents");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/agents`);
    await page.keyboard.press("Control+k");
    await page.keyboard.type(title.slice(0, 8));
    await expect.poll(() => palette.getByRole("option").first().textContent()).toContain(title);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/chats\//);
    await page.getByText("Hi there, how can I help?").waitFor();

    // Nothing matches: the palette says so.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("zzzz nothing");
    await palette.getByRole("status").getByText("Nothing matches").waitFor();
    await page.keyboard.press("Escape");

    // Switching the language from the palette.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("简体中文");
    await page.keyboard.press("Enter");
    await sidebar(page).getByRole("link", { name: "设置" }).waitFor();
    await page.keyboard.press("Control+k");
    await page.getByRole("dialog", { name: "命令面板" }).waitFor();
    await page.screenshot({ path: join(shots.dir, "palette-zh-1440.png") });
    await page.keyboard.type("English");
    await page.keyboard.press("Enter");
    await sidebar(page).getByRole("link", { name: "Settings" }).waitFor();

    // The theme from the palette: applied at once, and Settings shows the same choice.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("Theme: Dark");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate("document.documentElement.getAttribute('data-theme')"))
      .toBe("dark");
    await sidebar(page).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "Appearance" }).click();
    expect(await page.getByRole("radio", { name: "Dark" }).isChecked()).toBe(true);
    await page.context().close();
  });

  it("has shortcuts for a new chat, the sidebar, settings, the message box and their list", async () => {
    const page = await openPage("/agents");
    await page.keyboard.press("Control+Shift+O");
    await page.waitForURL(`${server.url}/`);
    await expect.poll(async () => (await focused(page)).name).toBe("Message");

    // Ctrl+B hides the sidebar (remembered), the top bar brings it back.
    await page.keyboard.press("Control+b");
    await expect.poll(() => sidebar(page).isVisible()).toBe(false);
    await page.reload();
    const show = page.getByRole("button", { name: "Show the sidebar" });
    await show.waitFor();
    await page.screenshot({ path: join(shots.dir, "sidebar-hidden-1440.png") });
    await show.click();
    await sidebar(page).waitFor();

    await blur(page);
    await page.keyboard.press("Control+,");
    await page.waitForURL(`${server.url}/settings`);
    await page.keyboard.press("Control+Shift+O");
    await page.waitForURL(`${server.url}/`);

    // "/" goes to the message box from anywhere but a text field; typed there it is text.
    await blur(page);
    await page.keyboard.press("/");
    expect((await focused(page)).name).toBe("Message");
    await page.keyboard.press("/");
    expect(await page.getByLabel("Message").inputValue()).toBe("/");
    await page.getByLabel("Message").fill("");

    await blur(page);
    await page.keyboard.press("?");
    const list = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await list.getByRole("cell", { name: "Open the command palette" }).waitFor();
    await page.screenshot({ path: join(shots.dir, "shortcuts-1440.png") });
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "detached" });
    // From the palette too.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("shortcuts");
    await page.keyboard.press("Enter");
    await list.waitFor();
    await page.keyboard.press("Escape");
    await page.context().close();
  });

  it("at 390 px, Ctrl+B opens and closes the drawer", async () => {
    const page = await openPage("/", 390);
    await expect.poll(() => sidebar(page).isVisible()).toBe(false);
    await page.keyboard.press("Control+b");
    await sidebar(page).waitFor();
    expect(await page.getByRole("button", { name: "Close the menu" }).count()).toBeGreaterThan(0);
    await page.keyboard.press("Control+b");
    await expect.poll(() => sidebar(page).isVisible()).toBe(false);
    await page.keyboard.press("Control+k");
    await page.getByRole("dialog", { name: "Command palette" }).waitFor();
    await page.screenshot({ path: join(shots.dir, "palette-390.png") });
    await page.keyboard.press("Escape");
    await page.context().close();
  });

  it("works with the keyboard only: send, stop, open a presented file, settings", async () => {
    const page = await openPage("/");
    await page.getByLabel("Message").waitFor();
    await tabTo(page, "Message");
    await page.keyboard.type("tell a slow story");
    await page.keyboard.press("Enter");
    await page.getByText("story5", { exact: false }).waitFor();
    await tabTo(page, "Stop");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Send" }).waitFor();
    expect(await page.getByText("story199").count()).toBe(0);

    await page.keyboard.press("/");
    await page.keyboard.type("write the notes");
    await page.keyboard.press("Enter");
    await page.getByText("The notes are ready.").waitFor();
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await panel.getByRole("button", { name: "notes.md" }).waitFor();
    await tabTo(page, "notes.md");
    await page.keyboard.press("Enter");
    await panel.getByRole("heading", { name: "Meeting notes" }).waitFor();
    await page.screenshot({ path: join(shots.dir, "keyboard-artifact-1440.png") });

    await page.keyboard.press("Control+k");
    await page.keyboard.type("settings");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/settings`);
    await page.context().close();
  });
});
