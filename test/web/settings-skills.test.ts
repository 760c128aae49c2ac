/**
 * Settings → Skills in real Chromium against a real `fawn serve`: a public skill switched off and
 * on, a `.skill` archive installed from the file picker (a bad one refused with the server's
 * sentence), a custom skill written, edited, restored from its history and deleted — each change
 * checked over HTTP afterwards (a delete asks first; No and Escape keep the skill); the editor
 * and the history pass axe at 1440 and 390 px.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildZip, skillMarkdown } from "../helpers/zip-archive.js";
import { seriousAxeViolations } from "./helpers/axe.js";
import { requireChromium } from "./helpers/chromium.js";
import { type SettingsFixture, startSettingsFixture } from "./helpers/settings-fixture.js";

const hasChromium = await requireChromium();

interface SkillView {
  name: string;
  enabled: boolean;
  category: string;
  content?: string;
}

describe.skipIf(!hasChromium)("Settings → Skills", { timeout: 120_000 }, () => {
  let f: SettingsFixture;

  beforeAll(async () => {
    f = await startSettingsFixture("settings-skills");
  }, 180_000);

  afterAll(async () => {
    await f?.close();
  });

  async function skills(): Promise<SkillView[]> {
    return ((await (await f.api("GET", "/skills")).json()) as { skills: SkillView[] }).skills;
  }

  function item(page: Page, name: string) {
    return page.locator(".settings-item").filter({ has: page.getByText(name, { exact: true }) });
  }

  it("switches a public skill off and on", async () => {
    const page = await f.open("/settings/skills", 1440);
    const toggle = page.getByRole("switch", { name: "Use deep-research" });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await page.getByRole("status").getByText("deep-research is off.").waitFor();
    expect((await skills()).find((skill) => skill.name === "deep-research")?.enabled).toBe(false);
    await page.reload();
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await page.getByRole("status").getByText("deep-research is on.").waitFor();
    expect((await skills()).find((skill) => skill.name === "deep-research")?.enabled).toBe(true);
    await page.context().close();
  });

  it("installs a .skill archive from the file picker; a bad one shows the server's sentence", async () => {
    const page = await f.open("/settings/skills", 390);
    const picker = page.getByLabel("Install a .skill archive");
    await picker.setInputFiles({
      name: "README.skill",
      mimeType: "application/zip",
      buffer: buildZip([{ name: "README.md", data: "no skill here" }]),
    });
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/SKILL\.md/);
    expect((await skills()).some((skill) => skill.category === "custom")).toBe(false);

    await picker.setInputFiles({
      name: "notes.skill",
      mimeType: "application/zip",
      buffer: buildZip([{ name: "notes/SKILL.md", data: skillMarkdown("notes", "Keep notes.") }]),
    });
    await page.getByRole("status").getByText("Installed notes.").waitFor();
    await item(page, "notes").getByText("Keep notes.").waitFor();
    const notes = (await skills()).find((skill) => skill.name === "notes");
    expect(notes).toMatchObject({ category: "custom", enabled: true });
    await page.screenshot({
      path: join(f.shots, "settings-skills-installed-390.png"),
      fullPage: true,
    });
    await page.context().close();
  });

  it("writes a custom skill, edits it, restores the first version and deletes it", async () => {
    const page = await f.open("/settings/skills", 1440);
    await page.getByRole("button", { name: "Write a new skill" }).click();
    const editor = page.getByRole("form", { name: "New skill" });
    const first = skillMarkdown("my-checklist", "Check the list before a release.", "1. Tests.");
    await editor.getByLabel("SKILL.md").fill(first);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({
      path: join(f.shots, "settings-skills-editor-1440.png"),
      fullPage: true,
    });
    await editor.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Created my-checklist.").waitFor();
    const created = await f.api("GET", "/skills/custom/my-checklist");
    expect(((await created.json()) as SkillView).content).toBe(first);

    // Edit: the stored SKILL.md opens in the box; a name change is refused with a sentence.
    await page.getByRole("button", { name: "Edit my-checklist" }).click();
    const edit = page.getByRole("form", { name: "Edit my-checklist" });
    await expect.poll(() => edit.getByLabel("SKILL.md").inputValue()).toBe(first);
    await edit.getByLabel("SKILL.md").fill(skillMarkdown("other-name"));
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.getByRole("alert").waitFor();
    expect(await edit.getByRole("alert").textContent()).toMatch(/name/i);
    const second = skillMarkdown(
      "my-checklist",
      "Check the list before a release.",
      "1. Tests.\n2. Docs.",
    );
    await edit.getByLabel("SKILL.md").fill(second);
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Saved my-checklist.").waitFor();
    const edited = await f.api("GET", "/skills/custom/my-checklist");
    expect(((await edited.json()) as SkillView).content).toBe(second);

    // History: the current version and the first; restoring the first writes a new version.
    await page.getByRole("button", { name: "History my-checklist" }).click();
    const history = page.getByRole("region", { name: "History of my-checklist" });
    await history.getByText("Version 2").waitFor();
    await history.getByText("Version 1").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({
      path: join(f.shots, "settings-skills-history-1440.png"),
      fullPage: true,
    });
    await history.getByRole("button", { name: "Restore this version (Version 1)" }).click();
    await page.getByRole("status").getByText("Restored version 1 of my-checklist.").waitFor();
    await history.getByText("Version 3").waitFor();
    const restored = await f.api("GET", "/skills/custom/my-checklist");
    expect(((await restored.json()) as SkillView).content).toBe(first);
    await history.getByRole("button", { name: "Close the history" }).click();

    // Delete asks first; No keeps it, Yes removes it.
    const row = item(page, "my-checklist");
    await row.getByRole("button", { name: "Delete" }).click();
    await row.getByRole("button", { name: "No" }).click();
    // Escape answers No too (Yes has the focus when the question appears).
    await row.getByRole("button", { name: "Delete" }).click();
    await page.keyboard.press("Escape");
    await row.getByRole("button", { name: "Yes" }).waitFor({ state: "detached" });
    expect((await skills()).some((skill) => skill.name === "my-checklist")).toBe(true);
    await row.getByRole("button", { name: "Delete" }).click();
    await row.getByRole("button", { name: "Yes" }).click();
    await page.getByRole("status").getByText("my-checklist was deleted.").waitFor();
    expect((await skills()).some((skill) => skill.name === "my-checklist")).toBe(false);
    expect((await f.api("GET", "/skills/custom/my-checklist")).status).toBe(404);
    await page.context().close();
  });

  it("the editor and the list pass axe at 390 px", async () => {
    const page = await f.open("/settings/skills", 390);
    await page.getByRole("switch", { name: "Use deep-research" }).waitFor();
    await page.getByRole("button", { name: "Write a new skill" }).click();
    await page.getByRole("form", { name: "New skill" }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({
      path: join(f.shots, "settings-skills-editor-390.png"),
      fullPage: true,
    });
    await page.context().close();
  });
});
