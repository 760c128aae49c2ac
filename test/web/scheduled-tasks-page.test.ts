/**
 * The Scheduled tasks page in real Chromium against a real `fawn serve` with crons polling every
 * second and a scripted model: a task is created in the UI from a preset (its prompt becomes the
 * run input, its chat is made first), shown with its schedule in words and as cron text, zone
 * and next run; bad input is refused in the form and a server refusal shows as its sentence;
 * pause/resume and edit change the stored cron; a task on a every-two-seconds cron fires for
 * real, its last run shows and "Open the chat" opens the answer; a task that starts a new chat
 * each run is a stateless cron; delete asks first. Server state is checked over HTTP. With crons
 * off the page says how to turn them on. axe finds nothing serious; screenshots at 1440 and
 * 390 px land in FAWN_WEB_SHOTS when set.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const SCRIPT = [{ match: "digest", turns: [{ content: "Here is your digest: all quiet." }] }];

interface StoredCron {
  cron_id: string;
  thread_id: string | null;
  schedule: string;
  timezone: string | null;
  enabled: boolean;
  on_run_completed?: string;
  payload: {
    input?: { messages?: { type: string; content: string }[] };
    config?: { configurable?: Record<string, unknown> };
  };
  metadata: Record<string, unknown>;
}

describe.skipIf(!hasChromium)("the Scheduled tasks page", { timeout: 120_000 }, () => {
  let shotFolder: { dir: string; remove: () => Promise<void> } | undefined;
  let browser: Browser;
  let server: WebGateway;
  let switchedOff: WebGateway;

  beforeAll(async () => {
    const webRoot = await sharedWebBuild();
    shotFolder = await screenshotFolder("scheduled-tasks");
    browser = await launchChromium();
    server = await startWebGateway({
      webRoot,
      config: (home) => ({
        crons: { enabled: true, poll_interval_seconds: 1 },
        models: [
          { name: "scripted", use: "scripted", model: "scripted", script: join(home, "s.json") },
          { name: "demo", use: "demo", model: "demo" },
        ],
      }),
    });
    await writeFile(join(server.home, "s.json"), JSON.stringify(SCRIPT));
    switchedOff = await startWebGateway({ webRoot, config: () => ({ crons: { enabled: false } }) });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await switchedOff?.close();
    await shotFolder?.remove();
  });

  async function openPage(base: string, width: number): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width, height: width > 800 ? 900 : 844 },
      timezoneId: "UTC",
    });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    reportPageOnFailure(page, "scheduled-tasks");
    await page.goto(`${base}/scheduled-tasks`);
    await page.getByRole("heading", { name: "Scheduled tasks", level: 1 }).waitFor();
    return page;
  }

  async function storedCrons(): Promise<StoredCron[]> {
    const response = await fetch(`${server.apiUrl}/runs/crons/search`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ limit: 100 }),
    });
    return (await response.json()) as StoredCron[];
  }

  async function cronTitled(title: string): Promise<StoredCron | undefined> {
    return (await storedCrons()).find((cron) => cron.metadata.title === title);
  }

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(shotFolder?.dir ?? "", name), fullPage: true });

  it("creates a daily task: checks the form, stores the prompt as the run input, lists it", async () => {
    const page = await openPage(server.url, 1440);
    await page.getByText("No scheduled tasks yet.").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "New task" }).click();
    const form = page.getByRole("form", { name: "New scheduled task" });
    await form.getByRole("button", { name: "Create task" }).click();
    await form.getByRole("alert").getByText("Write the prompt the agent should run.").waitFor();

    await form.getByLabel("Name").fill("Morning digest");
    await form.getByLabel("Prompt").fill("Write the daily digest of my inbox.");
    await form.getByLabel("Every day").check();
    await form.getByLabel("At", { exact: true }).fill("07:30");
    await form.getByLabel("Time zone").selectOption("Europe/Berlin");
    await form.getByLabel("Model").selectOption("scripted");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "tasks-form-1440.png");
    await form.getByRole("button", { name: "Create task" }).click();

    await page.getByRole("status").getByText("Created the task “Morning digest”.").waitFor();
    const card = page.getByRole("listitem", { name: "Morning digest" });
    const text = await card.textContent();
    expect(text).toContain("Every day at 07:30");
    expect(text).toContain("30 7 * * *");
    expect(text).toContain("Europe/Berlin");
    expect(text).toContain("Not run yet.");
    expect(text).toContain("Enabled");
    const stored = await cronTitled("Morning digest");
    expect(stored).toMatchObject({
      schedule: "30 7 * * *",
      timezone: "Europe/Berlin",
      enabled: true,
      payload: {
        input: { messages: [{ type: "human", content: "Write the daily digest of my inbox." }] },
        config: { configurable: { model_name: "scripted" } },
      },
    });
    // Its chat was made first, named after the task in the chat list.
    expect(stored?.thread_id).toEqual(expect.any(String));
    await page.reload();
    await page.getByRole("navigation", { name: "Chats" }).getByText("Morning digest").waitFor();
    await card.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "tasks-list-1440.png");
    await page.context().close();
  });

  it("refuses a malformed cron in the form and shows the server's sentence for a bad one", async () => {
    const page = await openPage(server.url, 1440);
    await page.getByRole("button", { name: "New task" }).click();
    const form = page.getByRole("form", { name: "New scheduled task" });
    await form.getByLabel("Prompt").fill("Never stored");
    await form.getByLabel("Cron expression").first().check();
    const expression = form.getByRole("textbox", { name: "Cron expression" });
    await expression.fill("every day");
    await form.getByRole("button", { name: "Create task" }).click();
    await form.getByRole("alert").getByText("A cron expression has five fields").waitFor();
    await expression.fill("61 * * * *");
    await form.getByRole("button", { name: "Create task" }).click();
    const alert = form.getByRole("alert");
    await alert.getByText("Could not save the task.", { exact: false }).waitFor();
    const sentence = (await alert.textContent()) ?? "";
    expect(sentence.length).toBeGreaterThan("Could not save the task. ".length + 10);
    expect(sentence).not.toMatch(/^\s*\{|HTTP \d{3}/);
    expect((await storedCrons()).some((cron) => cron.schedule.startsWith("61"))).toBe(false);
    // The chat made for the refused task is gone again.
    const threads = (await (
      await fetch(`${server.apiUrl}/threads/search`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ limit: 100 }),
      })
    ).json()) as { metadata: Record<string, unknown> }[];
    expect(threads.map((thread) => thread.metadata.preview)).not.toContain("Never stored");
    await form.getByRole("button", { name: "Cancel" }).click();
    await page.context().close();
  });

  it("pauses, resumes and edits a task; the stored cron follows", async () => {
    const page = await openPage(server.url, 1440);
    const card = page.getByRole("listitem", { name: "Morning digest" });
    await card.getByRole("button", { name: "Pause" }).click();
    await page.getByRole("status").getByText("Paused the task “Morning digest”.").waitFor();
    await card.getByRole("button", { name: "Resume" }).waitFor();
    expect((await cronTitled("Morning digest"))?.enabled).toBe(false);
    await card.getByText("Paused").first().waitFor();
    await card.getByRole("button", { name: "Resume" }).click();
    await card.getByRole("button", { name: "Pause" }).waitFor();
    expect((await cronTitled("Morning digest"))?.enabled).toBe(true);

    await card.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: "Edit “Morning digest”" });
    expect(await form.getByLabel("Prompt").inputValue()).toBe(
      "Write the daily digest of my inbox.",
    );
    await form.getByLabel("Every week").check();
    await form.getByLabel("On", { exact: true }).selectOption({ label: "Monday" });
    await form.getByLabel("At", { exact: true }).fill("08:00");
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Saved the task “Morning digest”.").waitFor();
    await card.getByText("Every Monday at 08:00").waitFor();
    const stored = await cronTitled("Morning digest");
    expect(stored?.schedule).toBe("0 8 * * 1");
    expect(stored?.timezone).toBe("Europe/Berlin");
    expect(stored?.payload.input?.messages?.[0]?.content).toBe(
      "Write the daily digest of my inbox.",
    );
    await page.context().close();
  });

  it("a task fires for real: its last run shows and Open the chat shows the answer", async () => {
    const page = await openPage(server.url, 1440);
    await page.getByRole("button", { name: "New task" }).click();
    const form = page.getByRole("form", { name: "New scheduled task" });
    await form.getByLabel("Name").fill("Quick digest");
    await form.getByLabel("Prompt").fill("Send the quick digest.");
    await form.getByLabel("Cron expression").first().check();
    await form.getByRole("textbox", { name: "Cron expression" }).fill("*/2 * * * * *");
    await form.getByLabel("Model").selectOption("scripted");
    await form.getByRole("button", { name: "Create task" }).click();
    const card = page.getByRole("listitem", { name: "Quick digest" });
    await card.getByText("Custom schedule").waitFor();

    const threadId = (await cronTitled("Quick digest"))?.thread_id ?? "";
    expect(threadId).not.toBe("");
    await expect
      .poll(
        async () => {
          const response = await fetch(`${server.apiUrl}/threads/${threadId}/runs?limit=5`);
          const runs = (await response.json()) as { status: string }[];
          return runs.some((run) => run.status === "success");
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    await card.getByRole("button", { name: "Pause" }).click();
    await card.getByRole("button", { name: "Resume" }).waitFor();
    expect((await cronTitled("Quick digest"))?.enabled).toBe(false);
    // Paused: once a firing admitted just before the pause has settled, the newest run is done.
    await expect
      .poll(
        async () => {
          const response = await fetch(`${server.apiUrl}/threads/${threadId}/runs?limit=50`);
          const runs = (await response.json()) as { status: string }[];
          return runs.every((run) => run.status === "success");
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => card.getByTestId("last-run").textContent()).toMatch(/ · finished$/);
    await shot(page, "tasks-fired-1440.png");

    await card.getByRole("button", { name: "Open the chat" }).click();
    await page.waitForURL(`${server.url}/chats/${threadId}`);
    await page
      .locator(".message.assistant")
      .getByText("Here is your digest: all quiet.")
      .first()
      .waitFor();
    // The chat the task made is in the sidebar without a reload.
    await page.locator(`[data-thread-id="${threadId}"]`).waitFor();
    await page.context().close();
  });

  it("a task that starts a new chat each run is a stateless cron that keeps its chats", async () => {
    const page = await openPage(server.url, 1440);
    await page.getByRole("button", { name: "New task" }).click();
    const form = page.getByRole("form", { name: "New scheduled task" });
    await form.getByLabel("Prompt").fill("Weekly report of the digest.");
    await form.getByLabel("Every hour").check();
    await form.getByLabel("At minute").fill("15");
    await form.getByLabel("A new chat for each run").check();
    await form.getByRole("button", { name: "Create task" }).click();
    const card = page.getByRole("listitem", { name: "Weekly report of the digest." });
    await card.getByText("Every hour at minute 15").waitFor();
    await card.getByText("Each run starts a new chat").waitFor();
    expect(await card.getByRole("button", { name: "Open the chat" }).count()).toBe(0);
    const stored = (await storedCrons()).find((cron) => cron.schedule === "15 * * * *");
    expect(stored).toMatchObject({ thread_id: null, on_run_completed: "keep" });
    await page.context().close();
  });

  it("at 390 px: cards and the form fit the width", async () => {
    const page = await openPage(server.url, 390);
    await page.getByRole("listitem", { name: "Morning digest" }).waitFor();
    const overflow = () =>
      page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
      ) as Promise<number>;
    expect(await overflow()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "tasks-list-390.png");
    await page.getByRole("button", { name: "New task" }).click();
    await page.getByRole("form", { name: "New scheduled task" }).getByLabel("Every week").check();
    expect(await overflow()).toBe(0);
    await shot(page, "tasks-form-390.png");
    await page.context().close();
  });

  it("reads in Simplified Chinese when that is the chosen language", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript("window.localStorage.setItem('fawn.locale', 'zh-CN')");
    const page = await context.newPage();
    reportPageOnFailure(page, "scheduled-tasks");
    await page.goto(`${server.url}/scheduled-tasks`);
    await page.getByRole("heading", { name: "定时任务", level: 1 }).waitFor();
    const card = page.getByRole("listitem", { name: "Morning digest" });
    await card.getByText("每星期一 08:00").waitFor();
    await card.getByRole("button", { name: "打开对话" }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "tasks-list-zh-1440.png");
    await context.close();
  });

  it("deletes a task only after the confirm; Escape cancels it", async () => {
    const page = await openPage(server.url, 1440);
    const card = page.getByRole("listitem", { name: "Morning digest" });
    await card.getByRole("button", { name: "Delete" }).click();
    const confirm = card.getByRole("group", { name: /Delete the task “Morning digest”\?/ });
    await confirm.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "detached" });
    expect(await cronTitled("Morning digest")).toBeDefined();
    await card.getByRole("button", { name: "Delete" }).click();
    await confirm.getByRole("button", { name: "Delete the task" }).click();
    await page.getByRole("status").getByText("Deleted the task “Morning digest”.").waitFor();
    await card.waitFor({ state: "detached" });
    expect(await cronTitled("Morning digest")).toBeUndefined();
    await page.context().close();
  });

  it("says how to turn scheduled tasks on when the server runs no crons", async () => {
    const page = await openPage(switchedOff.url, 1440);
    await page.getByText("This server does not run scheduled tasks").waitFor();
    expect(await page.getByRole("button", { name: "New task" }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });
});
