/**
 * The Agents page in real Chromium against a real `fawn serve` (agents_api on): an agent is
 * created in the UI (the name checked with the server while typed), shown with its model and
 * tool groups, edited, opened in a new chat (`/?agent=<name>`), and deleted after a confirm that
 * Escape cancels; every change is checked in the server's state over HTTP. With agents_api off
 * the page says which key turns it on. axe finds nothing serious; screenshots at 1440 and 390 px
 * land in FAWN_WEB_SHOTS when set.
 */
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

describe.skipIf(!hasChromium)("the Agents page", { timeout: 120_000 }, () => {
  let shotFolder: { dir: string; remove: () => Promise<void> } | undefined;
  let browser: Browser;
  let server: WebGateway;
  let switchedOff: WebGateway;

  beforeAll(async () => {
    const webRoot = await sharedWebBuild();
    shotFolder = await screenshotFolder("agents");
    browser = await launchChromium();
    const models = (home: string) => [
      { name: "demo", use: "demo", model: "demo" },
      { name: "scripted", use: "scripted", model: "scripted", script: join(home, "s.json") },
    ];
    server = await startWebGateway({
      webRoot,
      config: (home) => ({ agents_api: { enabled: true }, models: models(home) }),
    });
    switchedOff = await startWebGateway({ webRoot });
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
    });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    reportPageOnFailure(page, "agents");
    await page.goto(`${base}/agents`);
    await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
    return page;
  }

  async function storedAgent(name: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${server.apiUrl}/agents/${name}`);
    return { status: response.status, body: await response.json().catch(() => null) };
  }

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(shotFolder?.dir ?? "", name), fullPage: true });

  it("creates an agent after checking its name, and lists its model and tools", async () => {
    const page = await openPage(server.url, 1440);
    await page.getByText("No custom agents yet").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "New agent" }).click();
    const form = page.getByRole("form", { name: "New agent" });
    await form.getByLabel("Name").fill("not valid!");
    await form.getByText("Use only letters, digits and hyphens").waitFor();
    await form.getByLabel("Name").fill("Researcher");
    await form.getByText("researcher is available.").waitFor();
    await form.getByLabel("Description").fill("Finds and summarises sources.");
    await form.getByLabel("Model").selectOption("scripted");
    await form.getByLabel("Instructions (SOUL.md)").fill("You research carefully and cite.");
    await form.getByLabel("Only these groups:").check();
    await form.getByLabel("file:read").check();
    await form.getByLabel("Other groups (comma-separated)").fill("web");
    await form.getByLabel("Temperature (0–2)").fill("3");
    await form.getByRole("button", { name: "Create agent" }).click();
    await form.getByRole("alert").getByText("The temperature is a number from 0 to 2.").waitFor();
    await form.getByLabel("Temperature (0–2)").fill("0.3");
    await form.getByLabel("Thinking").selectOption("off");
    await form.getByLabel("Reasoning effort").selectOption("high");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "agents-form-1440.png");
    await form.getByRole("button", { name: "Create agent" }).click();

    const card = page.getByRole("listitem", { name: "researcher" });
    await card.waitFor();
    await page.getByRole("status").getByText("Created the agent researcher.").waitFor();
    expect(await card.textContent()).toContain("file:read, web");
    expect(await card.textContent()).toContain("scripted");
    expect(await card.textContent()).toContain("All enabled skills");
    expect(await card.textContent()).toContain(
      "temperature 0.3 · thinking off · High reasoning effort",
    );
    const stored = await storedAgent("researcher");
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      name: "researcher",
      description: "Finds and summarises sources.",
      model: "scripted",
      tool_groups: ["file:read", "web"],
      skills: null,
      model_settings: { temperature: 0.3 },
      thinking_enabled: false,
      reasoning_effort: "high",
      soul: "You research carefully and cite.",
    });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "agents-list-1440.png");

    // The same name again: the check says it is taken and nothing is sent.
    await page.getByRole("button", { name: "New agent" }).click();
    const again = page.getByRole("form", { name: "New agent" });
    await again.getByLabel("Name").fill("RESEARCHER");
    await again.getByText("You already have an agent named researcher.").waitFor();
    await again.getByRole("button", { name: "Create agent" }).click();
    await again
      .getByRole("alert")
      .getByText("You already have an agent named researcher.")
      .waitFor();
    await again.getByRole("button", { name: "Cancel" }).click();
    await page.context().close();
  });

  it("edits an agent, and a server refusal shows as its sentence", async () => {
    const page = await openPage(server.url, 1440);
    const card = page.getByRole("listitem", { name: "researcher" });
    await card.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: "Edit researcher" });
    expect(await form.getByLabel("Description").inputValue()).toBe("Finds and summarises sources.");
    await form.getByLabel("Description").fill("Finds, reads and summarises sources.");
    await form.getByLabel("Every tool group").check();
    await form.getByLabel("Model").selectOption("");
    expect(await form.getByLabel("Temperature (0–2)").inputValue()).toBe("0.3");
    await form.getByLabel("Temperature (0–2)").fill("");
    await form.getByLabel("Thinking").selectOption("");
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Saved the agent researcher.").waitFor();
    expect((await storedAgent("researcher")).body).toMatchObject({
      description: "Finds, reads and summarises sources.",
      model: null,
      tool_groups: null,
      model_settings: null,
      thinking_enabled: null,
      reasoning_effort: "high",
    });
    await card.getByText("All tools").waitFor();

    // Instructions over the server's 64 KiB limit are refused with a 422 sentence; nothing is stored.
    await card.getByRole("button", { name: "Edit" }).click();
    const retry = page.getByRole("form", { name: "Edit researcher" });
    await retry.getByLabel("Instructions (SOUL.md)").fill("x".repeat(70_000));
    await retry.getByRole("button", { name: "Save" }).click();
    const alert = retry.getByRole("alert");
    await alert.getByText("Could not save the agent.", { exact: false }).waitFor();
    expect(await alert.textContent()).toMatch(/soul/i);
    expect(await alert.textContent()).not.toMatch(/HTTP \d{3}|\{"detail"/);
    expect((await storedAgent("researcher")).body).toMatchObject({
      soul: "You research carefully and cite.",
    });
    await retry.getByRole("button", { name: "Cancel" }).click();
    await page.context().close();
  });

  it("at 390 px: cards fit the width; Chat with this agent opens a new chat for it", async () => {
    const page = await openPage(server.url, 390);
    const card = page.getByRole("listitem", { name: "researcher" });
    await card.waitFor();
    const overflow = (await page.evaluate(
      "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    )) as number;
    expect(overflow).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "agents-list-390.png");
    await page.getByRole("button", { name: "New agent" }).click();
    await shot(page, "agents-form-390.png");
    await page
      .getByRole("form", { name: "New agent" })
      .getByRole("button", { name: "Cancel" })
      .click();

    await card.getByRole("button", { name: "Chat with this agent" }).click();
    await page.waitForURL(`${server.url}/?agent=researcher`);
    // The chat's runs go to the agent, and the chat remembers it when reopened.
    await page.getByLabel("Message").fill("hello agent");
    await page.getByRole("button", { name: "Send" }).click();
    await page.waitForURL(/\/chats\//);
    const threadId = page.url().split("/").at(-1) ?? "";
    const runsOf = async () =>
      (await (await fetch(`${server.apiUrl}/threads/${threadId}/runs`)).json()) as {
        kwargs: { config?: { configurable?: Record<string, unknown> } };
      }[];
    await expect.poll(async () => (await runsOf()).length).toBe(1);
    expect((await runsOf())[0]?.kwargs.config?.configurable?.agent_name).toBe("researcher");
    const thread = (await (await fetch(`${server.apiUrl}/threads/${threadId}`)).json()) as {
      metadata: Record<string, unknown>;
    };
    expect(thread.metadata.agent_name).toBe("researcher");
    await page.goto(`${server.url}/chats/${threadId}`);
    await page.getByRole("button", { name: "Send" }).waitFor();
    await page.getByLabel("Message").fill("again");
    await page.getByRole("button", { name: "Send" }).click();
    await expect.poll(async () => (await runsOf()).length).toBe(2);
    for (const run of await runsOf())
      expect(run.kwargs.config?.configurable?.agent_name).toBe("researcher");
    await page.context().close();
  });

  it("deletes an agent only after the confirm; Escape cancels it", async () => {
    const page = await openPage(server.url, 1440);
    const card = page.getByRole("listitem", { name: "researcher" });
    await card.getByRole("button", { name: "Delete" }).click();
    const confirm = card.getByRole("group", { name: /Delete the agent researcher\?/ });
    await confirm.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "agents-confirm-1440.png");
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "detached" });
    expect((await storedAgent("researcher")).status).toBe(200);

    await card.getByRole("button", { name: "Delete" }).click();
    await confirm.getByRole("button", { name: "Delete researcher" }).click();
    await page.getByRole("status").getByText("Deleted the agent researcher.").waitFor();
    await card.waitFor({ state: "detached" });
    expect((await storedAgent("researcher")).status).toBe(404);
    await page.context().close();
  });

  it("says how to turn the page on when agents_api is off", async () => {
    const page = await openPage(switchedOff.url, 1440);
    await page.getByText("Custom agents are turned off on this server").waitFor();
    expect(await page.getByRole("button", { name: "New agent" }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });
});
