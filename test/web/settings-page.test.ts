/**
 * The Settings page in real Chromium against a real `fawn serve` (local auth, two scripted
 * models): the section list beside the panel (above it at 390 px), every section free of serious
 * axe violations at both widths, the default model for new chats saved where the chat reads it,
 * the theme applied at once and kept across a reload, the language switched to Chinese and back.
 */

import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousAxeViolations } from "./helpers/axe.js";
import { requireChromium } from "./helpers/chromium.js";
import { type SettingsFixture, startSettingsFixture } from "./helpers/settings-fixture.js";

const hasChromium = await requireChromium();

const SECTIONS = [
  ["models", "Models"],
  ["skills", "Skills"],
  ["mcp", "MCP servers"],
  ["memory", "Memory"],
  ["account", "Account"],
  ["appearance", "Appearance"],
  ["language", "Language"],
] as const;

describe.skipIf(!hasChromium)("the Settings page", { timeout: 120_000 }, () => {
  let f: SettingsFixture;

  beforeAll(async () => {
    f = await startSettingsFixture("settings-page");
  }, 180_000);

  afterAll(async () => {
    await f?.close();
  });

  function panel(page: Page) {
    return page.locator(".settings-panel");
  }

  async function horizontalOverflow(page: Page): Promise<number> {
    return (await page.evaluate(
      "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    )) as number;
  }

  for (const width of [1440, 390]) {
    it(`at ${width} px every section opens from the list, passes axe and fits`, async () => {
      const page = await f.open("/settings", width);
      const nav = page.getByRole("navigation", { name: "Settings sections" });
      await page.getByRole("heading", { level: 2, name: "Models" }).waitFor();
      await panel(page).getByText("Quick model").waitFor();
      for (const [section, label] of SECTIONS) {
        await nav.getByRole("link", { name: label, exact: true }).click();
        await page.getByRole("heading", { level: 2, name: label }).waitFor();
        expect(new URL(page.url()).pathname).toBe(`/settings/${section}`);
        expect(
          await nav.getByRole("link", { name: label, exact: true }).getAttribute("aria-current"),
        ).toBe("page");
        await page.waitForLoadState("networkidle");
        await expect.poll(() => panel(page).getByText("Loading…").count()).toBe(0);
        expect(await seriousAxeViolations(page)).toEqual([]);
        expect(await horizontalOverflow(page)).toBe(0);
        await page.screenshot({
          path: join(f.shots, `settings-${section}-${width}.png`),
          fullPage: true,
        });
      }
      const navBox = await nav.boundingBox();
      const panelBox = await panel(page).boundingBox();
      if (width === 390) {
        // Stacked: the list above the panel.
        expect((navBox?.y ?? 0) + (navBox?.height ?? 0)).toBeLessThanOrEqual(panelBox?.y ?? 0);
      } else {
        // Side by side: the list left of the panel.
        expect((navBox?.x ?? 0) + (navBox?.width ?? 0)).toBeLessThanOrEqual(panelBox?.x ?? 0);
      }
      await page.context().close();
    });
  }

  it("Models: lists both models with their capabilities; the default is saved for new chats", async () => {
    const page = await f.open("/settings/models", 1440);
    const quick = panel(page).getByRole("radio", { name: /Quick model/ });
    const deep = panel(page).getByRole("radio", { name: /Deep thinker/ });
    await quick.waitFor();
    // The server's default (the first configured) is chosen until the user picks another.
    expect(await quick.isChecked()).toBe(true);
    await panel(page).getByText("Capabilities: vision").waitFor();
    await panel(page).getByText("Context window: 128,000 tokens").waitFor();
    const listed = (await (await f.api("GET", "/models")).json()) as {
      models: { name: string }[];
    };
    expect(listed.models.map((model) => model.name)).toEqual(["quick", "deep"]);

    await deep.check();
    await panel(page)
      .getByRole("status")
      .getByText("New chats now start with Deep thinker.")
      .waitFor();
    // The key the chat's model picker reads.
    expect(await page.evaluate("localStorage.getItem('fawn.model')")).toBe("deep");
    await page.reload();
    await deep.waitFor();
    expect(await deep.isChecked()).toBe(true);
    // A new chat starts on it.
    await page.goto(`${f.server.url}/`);
    await expect
      .poll(() => page.getByRole("combobox", { name: "Model" }).inputValue())
      .toBe("deep");
    await page.context().close();
  });

  it("Appearance: Dark and Light apply at once and survive a reload; System follows the browser", async () => {
    const page = await f.open("/settings/appearance", 1440);
    const theme = () => page.evaluate("document.documentElement.dataset.theme ?? null");
    const background = () =>
      page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()");
    await page.getByRole("radio", { name: "System", exact: true }).waitFor();
    expect(await page.getByRole("radio", { name: "System", exact: true }).isChecked()).toBe(true);
    expect(await theme()).toBeNull();

    await page.getByRole("radio", { name: "Dark", exact: true }).check();
    expect(await theme()).toBe("dark");
    expect(await background()).toBe("#17181a");
    await page.screenshot({ path: join(f.shots, "settings-appearance-dark-1440.png") });
    // Saved: applied from start-up on any page, and shown as chosen.
    await page.goto(`${f.server.url}/`);
    await page.getByRole("button", { name: "New chat" }).first().waitFor();
    expect(await theme()).toBe("dark");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto(`${f.server.url}/settings/appearance`);
    await page.getByRole("radio", { name: "Dark", exact: true }).waitFor();
    expect(await page.getByRole("radio", { name: "Dark", exact: true }).isChecked()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Light wins over a dark browser preference.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.getByRole("radio", { name: "Light", exact: true }).check();
    expect(await theme()).toBe("light");
    expect(await background()).toBe("#fbfaf7");
    await page.getByRole("radio", { name: "System", exact: true }).check();
    expect(await theme()).toBeNull();
    expect(await background()).toBe("#17181a");
    await page.context().close();
  });

  it("Language: 简体中文 turns the page Chinese at once and stays after a reload", async () => {
    const page = await f.open("/settings/language", 390);
    await page.getByRole("radio", { name: "简体中文" }).check();
    await page.getByRole("heading", { level: 1, name: "设置" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "语言" }).waitFor();
    expect(await page.evaluate("document.documentElement.lang")).toBe("zh-CN");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(f.shots, "settings-language-zh-390.png"), fullPage: true });
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "设置" }).waitFor();
    await page.getByRole("link", { name: "模型" }).click();
    await page.getByRole("heading", { level: 2, name: "模型" }).waitFor();
    await page.getByText("新对话的默认模型").waitFor();
    await page.getByRole("link", { name: "语言" }).click();
    await page.getByRole("radio", { name: "English" }).check();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await page.context().close();
  });
});
