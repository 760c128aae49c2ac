/**
 * The chat stream in real Chromium against a real gateway with a scripted model: a delegated
 * sub-agent shows as a card with its live state, elapsed time and report, also after a reload;
 * the header's token gauge shows the thread's token usage as the server counts it; each turn
 * shows how long it took (a running one, its elapsed time); a 500-message thread keeps only a
 * window of rows in the DOM and still scrolls to its first message; a tool call, thinking and a
 * sub-agent card the user opened stay open when their rows scroll out of view and back.
 * Screenshots at 1440 and 390 px land in FAWN_WEB_SHOTS when set.
 */

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@langchain/langgraph-sdk";
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

const SURVEY = Array.from({ length: 40 }, (_, index) => `finding${index}`).join(" ");
const SLOW = Array.from({ length: 60 }, (_, index) => `token${index}`).join(" ");

const SCRIPT = [
  {
    match: "^Delegate",
    turns: [
      {
        content: "Handing this to a sub-agent.",
        tool_calls: [
          {
            id: "call_survey",
            name: "task",
            args: {
              description: "Survey the sources",
              prompt: "SUB: survey the sources",
              subagent_type: "general-purpose",
            },
          },
        ],
      },
      { content: "The survey is in." },
    ],
  },
  { match: "^SUB: survey", stream_delay_ms: 60, turns: [{ content: SURVEY }] },
  { match: "^Slow", stream_delay_ms: 50, turns: [{ content: SLOW }] },
  { turns: [{ content: "Short answer." }] },
];

/** A seeded thread's messages: question and answer pairs, numbered from 0. */
function seededMessages(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0
      ? { type: "human", id: `h${index}`, content: `Question number ${index}` }
      : { type: "ai", id: `a${index}`, content: `Answer number ${index}, with **some** text.` },
  );
}

/** A thread opening with a tool call, a delegation and thinking, then `count` more messages. */
function disclosureMessages(count: number): Record<string, unknown>[] {
  return [
    { type: "human", id: "q-open", content: "Look into the sources" },
    {
      type: "ai",
      id: "a-steps",
      content: "",
      additional_kwargs: { reasoning_content: "Weighing the first step" },
      tool_calls: [
        { id: "call_ls", name: "bash", args: { description: "list the files", command: "ls" } },
        {
          id: "call_check",
          name: "task",
          args: {
            description: "Check the sources",
            prompt: "check",
            subagent_type: "general-purpose",
          },
        },
      ],
    },
    { type: "tool", id: "t-ls", tool_call_id: "call_ls", name: "bash", content: "notes.txt" },
    { type: "tool", id: "t-check", tool_call_id: "call_check", name: "task", content: "Checked." },
    {
      type: "ai",
      id: "a-answer",
      content: "The sources hold up.",
      additional_kwargs: { reasoning_content: "Summing up the findings" },
    },
    ...seededMessages(count),
  ];
}

describe.skipIf(!hasChromium)("the chat stream", { timeout: 120_000 }, () => {
  let browser: Browser;
  let server: WebGateway;
  let client: Client;
  let shots: { dir: string; remove: () => Promise<void> };

  beforeAll(async () => {
    const webRoot = await sharedWebBuild();
    shots = await screenshotFolder("chat-stream");
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
    client = server.client();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await shots?.remove();
  });

  async function openPage(path: string, width: number): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width, height: width > 800 ? 900 : 844 },
    });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    reportPageOnFailure(page, "chat-stream");
    await page.goto(`${server.url}${path}`);
    return page;
  }

  it("shows a sub-agent card live, with its state, elapsed time and report, and again after a reload", async () => {
    const thread = await client.threads.create();
    await client.runs.create(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: "Delegate the survey" }] },
      config: { configurable: { model_name: "scripted", subagent_enabled: true } },
      streamMode: ["values", "messages-tuple", "custom"],
    });
    const page = await openPage(`/chats/${thread.thread_id}`, 1440);
    const card = page.getByTestId("subagent-card");
    await card.and(page.locator('[data-state="running"]')).waitFor();
    expect(await card.locator(".subagent-description").textContent()).toBe("Survey the sources");
    await card.getByTestId("subagent-elapsed").waitFor();
    await page.screenshot({ path: join(shots.dir, "subagent-running-1440.png") });
    await card.and(page.locator('[data-state="done"]')).waitFor();
    await page.locator(".message.assistant").getByText("The survey is in.").waitFor();
    await card.locator("summary").click();
    await card
      .locator(".subagent-body .markdown")
      .getByText("finding39", { exact: false })
      .waitFor();
    await page.screenshot({ path: join(shots.dir, "subagent-done-1440.png") });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.reload();
    const again = page.getByTestId("subagent-card");
    await again.and(page.locator('[data-state="done"]')).waitFor();
    expect(await again.getByTestId("subagent-elapsed").textContent()).toMatch(/^\d+:\d\d$/);
    await again.locator("summary").click();
    await again
      .locator(".subagent-body .markdown")
      .getByText("finding39", { exact: false })
      .waitFor();
    await page.context().close();

    const narrow = await openPage(`/chats/${thread.thread_id}`, 390);
    await narrow.getByTestId("subagent-card").waitFor();
    await narrow.screenshot({ path: join(shots.dir, "subagent-done-390.png") });
    // The gauge's figures open on screen, not off its edge.
    await narrow.getByTestId("token-gauge").locator("summary").click();
    const popover = await narrow.locator(".token-popover").boundingBox();
    expect(popover?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((popover?.x ?? 0) + (popover?.width ?? 0)).toBeLessThanOrEqual(390);
    await narrow.screenshot({ path: join(shots.dir, "token-gauge-390.png") });
    expect(await seriousAxeViolations(narrow)).toEqual([]);
    // In Chinese: the card's state and the turn's duration read in the page's language.
    await narrow.evaluate("localStorage.setItem('fawn.locale', 'zh-CN')");
    await narrow.reload();
    await narrow
      .getByTestId("subagent-card")
      .locator(".subagent-state")
      .getByText("完成")
      .waitFor();
    await narrow.getByTestId("turn-duration").getByText("用时", { exact: false }).waitFor();
    await narrow.screenshot({ path: join(shots.dir, "subagent-done-390-zh.png") });
    await narrow.context().close();
  });

  it("shows a running turn's elapsed time, then how long it took, and the token usage the server counted", async () => {
    const page = await openPage("/", 1440);
    await page.getByLabel("Message").fill("Slow answer, please");
    await page.getByLabel("Message").press("Enter");
    const running = page.getByTestId("turn-duration").and(page.locator('[data-state="running"]'));
    await running.waitFor();
    expect(await running.textContent()).toMatch(/^Working for \d+:\d\d$/);
    const finished = page.getByTestId("turn-duration").and(page.locator('[data-state="finished"]'));
    await finished.waitFor();
    expect(await finished.textContent()).toMatch(/^Took \d+:\d\d$/);

    const threadId = page.url().split("/").at(-1) ?? "";
    const gauge = page.getByTestId("token-gauge");
    await gauge.waitFor();
    const usage = (await (
      await fetch(`${server.apiUrl}/threads/${threadId}/token-usage?include_active=true`)
    ).json()) as { total_tokens: number; total_input_tokens: number; total_output_tokens: number };
    const runs = await client.runs.list(threadId);
    const runTotal = runs.reduce(
      (sum, run) => sum + Number((run as unknown as { total_tokens: number }).total_tokens),
      0,
    );
    expect(usage.total_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(runTotal);
    await gauge.locator("summary").click();
    const shown = (key: string) => gauge.getByTestId(key).textContent();
    await expect.poll(() => shown("usageTotal")).toBe(usage.total_tokens.toLocaleString("en-US"));
    expect(await shown("usageInput")).toBe(usage.total_input_tokens.toLocaleString("en-US"));
    expect(await shown("usageOutput")).toBe(usage.total_output_tokens.toLocaleString("en-US"));
    await page.screenshot({ path: join(shots.dir, "token-gauge-1440.png") });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // After a reload the duration comes from the run's own times.
    await page.reload();
    await page.getByTestId("turn-duration").and(page.locator('[data-state="finished"]')).waitFor();
    await page.context().close();
  });

  it("renders a 500-message thread as a window of rows and scrolls to its first message", async () => {
    const thread = await client.threads.create();
    await client.threads.updateState(thread.thread_id, {
      values: { messages: seededMessages(500) },
    });
    for (const width of [1440, 390]) {
      const page = await openPage(`/chats/${thread.thread_id}`, width);
      const list = page.getByTestId("message-list");
      await expect.poll(() => list.getAttribute("data-count"), { timeout: 30_000 }).toBe("500");
      // Opened at the latest message.
      await page.getByText("Answer number 499", { exact: false }).waitFor();
      const rows = await page.locator(".message-row").count();
      expect(rows).toBeGreaterThan(0);
      expect(rows).toBeLessThan(60);
      await page.screenshot({ path: join(shots.dir, `long-thread-${width}.png`) });
      await page.evaluate("document.querySelector('[data-testid=messages]').scrollTop = 0");
      await page.getByRole("button", { name: "Jump to latest" }).waitFor();
      // Row heights are measured as they are drawn: keep going up until the first one shows.
      await expect
        .poll(
          async () => {
            await page.evaluate("document.querySelector('[data-testid=messages]').scrollTop = 0");
            return page.getByText("Question number 0", { exact: true }).isVisible();
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      expect(await page.locator(".message-row").count()).toBeLessThan(60);
      await page.screenshot({ path: join(shots.dir, `long-thread-top-${width}.png`) });
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Jump to latest" }).click();
      await page.getByText("Answer number 499", { exact: false }).waitFor();
      await page.context().close();
    }
  });

  it("keeps a tool call, thinking and a sub-agent card open when their rows scroll out of view and back", async () => {
    const thread = await client.threads.create();
    await client.threads.updateState(thread.thread_id, {
      values: { messages: disclosureMessages(200) },
    });
    const page = await openPage(`/chats/${thread.thread_id}`, 1440);
    const scroller = "document.querySelector('[data-testid=messages]')";
    await page.getByText("Answer number 199", { exact: false }).waitFor();
    const toTop = () =>
      expect
        .poll(
          async () => {
            await page.evaluate(`${scroller}.scrollTop = 0`);
            return page.getByText("Look into the sources", { exact: true }).isVisible();
          },
          { timeout: 30_000 },
        )
        .toBe(true);
    await toTop();
    const tool = page.locator('.tool-step[data-tool="bash"]');
    const card = page.getByTestId("subagent-card");
    const stepThinking = page.locator(".steps .reasoning");
    const answerThinking = page.locator(".message.assistant .reasoning");
    await tool.locator("summary").click();
    await card.locator("summary").click();
    await stepThinking.locator("summary").click();
    await answerThinking.locator("summary").click();
    await tool.locator(".tool-result").getByText("notes.txt").waitFor();
    await page.screenshot({ path: join(shots.dir, "disclosures-open-1440.png") });

    // Far enough down that the opening rows leave the DOM, then back up.
    await page.getByRole("button", { name: "Jump to latest" }).click();
    await page.getByText("Answer number 199", { exact: false }).waitFor();
    await tool.waitFor({ state: "detached" });
    await toTop();
    const open = (selector: string) =>
      page.evaluate(`document.querySelector(${JSON.stringify(selector)})?.open`);
    expect(await open('.tool-step[data-tool="bash"]')).toBe(true);
    expect(await open("[data-testid=subagent-card]")).toBe(true);
    expect(await open(".steps .reasoning")).toBe(true);
    expect(await open(".message.assistant .reasoning")).toBe(true);
    await tool.locator(".tool-result").getByText("notes.txt").waitFor();
    // One closed again stays closed.
    await tool.locator("summary").click();
    await page.getByRole("button", { name: "Jump to latest" }).click();
    await tool.waitFor({ state: "detached" });
    await toTop();
    expect(await open('.tool-step[data-tool="bash"]')).toBe(false);
    expect(await open("[data-testid=subagent-card]")).toBe(true);
    await page.context().close();
  });
});
