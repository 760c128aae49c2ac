/**
 * Settings → Memory in real Chromium against a real `fawn serve`: a fact added, edited, found by
 * search and deleted; memory exported as a JSON download, imported from a file (summaries shown,
 * a file that is not JSON refused with a sentence) and cleared after a confirmation — each change
 * checked over HTTP afterwards; the panel passes axe at 1440 and 390 px.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousAxeViolations } from "./helpers/axe.js";
import { requireChromium } from "./helpers/chromium.js";
import { type SettingsFixture, startSettingsFixture } from "./helpers/settings-fixture.js";

const hasChromium = await requireChromium();

interface Fact {
  id: string;
  content: string;
  category: string;
  confidence: number;
  source: string;
}
interface MemoryDoc {
  user: Record<string, { summary: string; updatedAt: string }>;
  facts: Fact[];
  [key: string]: unknown;
}

describe.skipIf(!hasChromium)("Settings → Memory", { timeout: 120_000 }, () => {
  let f: SettingsFixture;

  beforeAll(async () => {
    f = await startSettingsFixture("settings-memory");
  }, 180_000);

  afterAll(async () => {
    await f?.close();
  });

  async function memory(): Promise<MemoryDoc> {
    return (await (await f.api("GET", "/memory")).json()) as MemoryDoc;
  }

  it("adds, edits, finds and deletes a fact", async () => {
    const page = await f.open("/settings/memory", 1440);
    await page.getByText("No facts are stored.").waitFor();
    await page.getByRole("button", { name: "Add a fact" }).click();
    const form = page.getByRole("form", { name: "Add a fact" });
    await form.getByLabel("Fact", { exact: true }).fill("Prefers   short answers");
    await form.getByLabel("Category").fill("preference");
    await form.getByLabel("Confidence (0–1)").fill("0.9");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("The fact was added.").waitFor();
    let facts = (await memory()).facts;
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({
      content: "Prefers short answers",
      category: "preference",
      confidence: 0.9,
      source: "manual",
    });

    // An out-of-range confidence is refused before anything is sent.
    await page.getByRole("button", { name: "Edit: Prefers short answers" }).click();
    const edit = page.getByRole("form", { name: "Edit" });
    await edit.getByLabel("Confidence (0–1)").fill("3");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.getByRole("alert").getByText("Confidence is a number from 0 to 1.").waitFor();
    await edit.getByLabel("Confidence (0–1)").fill("0.7");
    await edit.getByLabel("Fact", { exact: true }).fill("Prefers short answers with examples");
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("The fact was saved.").waitFor();
    facts = (await memory()).facts;
    expect(facts[0]).toMatchObject({
      content: "Prefers short answers with examples",
      confidence: 0.7,
    });

    // A second fact, then search narrows the list.
    await page.getByRole("button", { name: "Add a fact" }).click();
    const second = page.getByRole("form", { name: "Add a fact" });
    await second.getByLabel("Fact", { exact: true }).fill("Works on Fawn");
    await second.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("The fact was added.").waitFor();
    await page.getByText("2 facts").waitFor();
    await page.getByLabel("Search facts").fill("fawn");
    await page.locator(".memory-fact").first().getByText("Works on Fawn").waitFor();
    expect(await page.locator(".memory-fact").count()).toBe(1);
    await page.getByLabel("Search facts").fill("");

    const row = page.locator(".memory-fact").filter({ hasText: "Works on Fawn" });
    await row.getByRole("button", { name: "Delete" }).click();
    await row.getByRole("button", { name: "Yes" }).click();
    await page.getByRole("status").getByText("The fact was deleted.").waitFor();
    facts = (await memory()).facts;
    expect(facts.map((fact) => fact.content)).toEqual(["Prefers short answers with examples"]);
    await page.screenshot({ path: join(f.shots, "settings-memory-facts-1440.png") });
    await page.context().close();
  });

  it("exports a JSON download, imports a file, refuses a non-JSON file and clears all", async () => {
    const page = await f.open("/settings/memory", 390);
    await page.getByRole("button", { name: "Export JSON" }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export JSON" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("fawn-memory.json");
    const exported = JSON.parse(await readFile(await download.path(), "utf8")) as MemoryDoc;
    const stored = (await (await f.api("GET", "/memory/export")).json()) as MemoryDoc;
    expect(exported.facts).toEqual(stored.facts);

    const picker = page.getByLabel("Import JSON");
    await picker.setInputFiles({
      name: "broken.json",
      mimeType: "application/json",
      buffer: Buffer.from("{ not json"),
    });
    await page
      .getByRole("alert")
      .getByText(/That file is not JSON/)
      .waitFor();

    const now = new Date().toISOString();
    const document: MemoryDoc = {
      ...exported,
      user: {
        ...exported.user,
        workContext: { summary: "Builds a web workspace.", updatedAt: now },
      },
      facts: [
        {
          id: "f-1",
          content: "Likes tea",
          category: "preference",
          confidence: 0.8,
          source: "manual",
          createdAt: now,
        } as Fact,
        {
          id: "f-2",
          content: "Lives in Lyon",
          category: "context",
          confidence: 0.6,
          source: "manual",
          createdAt: now,
        } as Fact,
      ],
    };
    await picker.setInputFiles({
      name: "memory.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(document)),
    });
    await page.getByRole("status").getByText("Memory imported: 2 facts.").waitFor();
    await page.getByText("Builds a web workspace.").waitFor();
    await page.getByText("Likes tea").waitFor();
    const imported = await memory();
    expect(imported.facts.map((fact) => fact.content).sort()).toEqual([
      "Likes tea",
      "Lives in Lyon",
    ]);
    expect(imported.user.workContext?.summary).toBe("Builds a web workspace.");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(f.shots, "settings-memory-imported-390.png") });

    await page.getByRole("button", { name: "Clear all memory" }).click();
    await page.getByText("Forget every summary and fact? This cannot be undone.").waitFor();
    await page.getByRole("button", { name: "Yes" }).click();
    await page.getByRole("status").getByText("Memory cleared.").waitFor();
    await page.getByText("No facts are stored.").waitFor();
    const cleared = await memory();
    expect(cleared.facts).toEqual([]);
    expect(cleared.user.workContext?.summary ?? "").toBe("");
    await page.context().close();
  });
});
