/**
 * The web workspace in real Chromium against a real gateway (the UI built once for this file,
 * served by the gateway at `/`): the offline demo's report streams in with its tool steps and
 * lands in the artifacts panel, from where it downloads; the thread is in the sidebar after a
 * reload; tokens show while they stream; a reload or another browser rejoins a running run, and Stop cancels it; an uploaded file reaches the agent;
 * a clarification question is answered by clicking an option; a plan-mode run shows its to-dos;
 * a failed run shows an error; a thread is deleted from the sidebar;
 * with local auth, a wrong password shows an error and the right one opens the workspace.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { buildWeb } from "../../web/ensure-web-build.js";
import { launchChromium, RECORD_ASSISTANT_TEXTS, requireChromium } from "./helpers/chromium.js";
import { startWebGateway, type WebGateway } from "./helpers/web-gateway.js";

const hasChromium = await requireChromium();

const SLOW_ANSWER =
  "Streaming works: these words arrive one at a time, so the page shows the answer growing " +
  "while the model is still writing it, and the last word is here.";

const QUESTION = "Which city should the weekend plan cover?";

const SCRIPT = [
  {
    match: "plan a weekend trip",
    turns: [
      {
        content: "Before planning, one question.",
        tool_calls: [
          {
            name: "ask_clarification",
            args: {
              question: QUESTION,
              clarification_type: "missing_info",
              options: ["Lisbon", "Kyoto"],
            },
          },
        ],
      },
    ],
  },
  {
    match: "make a plan",
    turns: [
      {
        tool_calls: [
          {
            name: "write_todos",
            args: {
              todos: [
                { content: "Gather the figures", status: "completed" },
                { content: "Write the summary", status: "in_progress" },
              ],
            },
          },
        ],
      },
      { content: "The plan is under way." },
    ],
  },
  { match: "^lisbon$", turns: [{ content: "Lisbon it is: Alfama on Saturday, Belém on Sunday." }] },
  { match: "stream please", stream_delay_ms: 40, turns: [{ content: SLOW_ANSWER }] },
  { match: "hang now", hang: true },
  {
    match: "attached",
    turns: [
      {
        tool_calls: [
          {
            name: "read_file",
            args: { description: "look at the upload", path: "/mnt/user-data/uploads/visits.csv" },
          },
        ],
      },
      { content: "Kyoto has the most visits." },
    ],
  },
];

const CSV = "city,visits\nLisbon,3\nKyoto,5\n";

// A shared 2-core CI box runs other suites beside this one: generous per-test time.
describe.skipIf(!hasChromium)("the web workspace in Chromium", { timeout: 90_000 }, () => {
  let webRoot: string;
  let browser: Browser;
  let server: WebGateway;
  let authServer: WebGateway;

  beforeAll(async () => {
    webRoot = await mkdtemp(join(tmpdir(), "fawn-web-dist-"));
    await buildWeb(webRoot);
    browser = await launchChromium();
    server = await startWebGateway({
      webRoot,
      config: (home) => ({
        models: [
          { name: "demo", use: "demo", model: "demo" },
          { name: "scripted", use: "scripted", model: "scripted", script: join(home, "s.json") },
          // Its script does not exist: every run on it fails.
          { name: "broken", use: "scripted", model: "broken", script: join(home, "missing.json") },
        ],
      }),
    });
    await writeFile(join(server.home, "s.json"), JSON.stringify(SCRIPT));
    authServer = await startWebGateway({ webRoot, config: () => ({ auth: { mode: "local" } }) });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await authServer?.close();
    if (webRoot) await rm(webRoot, { recursive: true, force: true });
  });

  async function openPage(url: string): Promise<Page> {
    const context = await browser.newContext({ acceptDownloads: true });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const logs: string[] = [];
    page.on("console", (message) => logs.push(`${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => logs.push(`page error: ${error.message}`));
    // The API traffic, for the failure report: what was asked, answered, finished or cut off.
    const api = (what: string, request: Request, extra = ""): void => {
      if (request.url().includes("/api/"))
        logs.push(`${what} ${request.method()} ${request.url()}${extra}`);
    };
    page.on("request", (request) => api("request", request));
    page.on("response", (response) => api(`response ${response.status()}`, response.request()));
    page.on("requestfinished", (request) => api("finished", request));
    page.on("requestfailed", (request) =>
      api("failed", request, ` ${request.failure()?.errorText}`),
    );
    // On failure: what the page showed and logged, to see why without rerunning.
    onTestFailed(async () => {
      const shot = join(tmpdir(), `fawn-web-failure-${Date.now()}.png`);
      await page.screenshot({ path: shot }).catch(() => undefined);
      console.error(`screenshot: ${shot}\n${logs.join("\n")}`);
    });
    await page.goto(url);
    return page;
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.getByLabel("Message").fill(text);
    await page.getByLabel("Message").press("Enter");
  }

  it("runs the demo: streamed answer, tool steps, the report in the artifacts panel, download, reload", async () => {
    const page = await openPage(server.url);
    // The offline demo is labelled as such in the model picker.
    await page
      .getByLabel("Model")
      .locator("option", { hasText: /offline demo/i })
      .waitFor({ state: "attached" });

    await send(page, "Write me a short report");
    const answer = page.locator(".message.assistant").last();
    await answer.getByText("Highlights: 25 primes below 100").waitFor();
    expect(page.url()).toMatch(/\/chats\/[0-9a-f-]{36}$/);

    // Each tool call is a collapsible step with its name, arguments and result.
    for (const tool of ["bash", "write_file", "present_files"]) {
      await page.locator(`.tool-step[data-tool="${tool}"]`).first().waitFor();
    }
    const write = page.locator('.tool-step[data-tool="write_file"]');
    await write.locator("summary").click();
    await write
      .locator(".tool-arg", { hasText: "path" })
      .getByText("/mnt/user-data/outputs/report.md", { exact: true })
      .waitFor();
    await write.locator(".tool-result").waitFor();

    // The report is in the artifacts panel: preview, then download.
    const panel = page.getByRole("complementary", { name: "Artifacts" });
    await panel.getByRole("button", { name: "report.md" }).click();
    await panel.getByRole("heading", { name: "Prime numbers below 100" }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      panel.getByRole("link", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("report.md");
    const saved = await download.path();
    expect(await readFile(saved, "utf8")).toContain("# Prime numbers below 100");

    // After a reload the thread is in the sidebar (active) and its conversation is back.
    const threadId = page.url().split("/").at(-1) ?? "";
    await page.reload();
    const active = page.locator(".thread.active");
    await active.waitFor();
    expect(await page.locator(".thread").count()).toBeGreaterThanOrEqual(1);
    await page.locator(".message.human").getByText("Write me a short report").waitFor();
    await page.locator(".message.assistant").getByText("Highlights: 25 primes").waitFor();
    expect(await active.locator("button").first().getAttribute("data-thread-id")).toBe(threadId);
    await page.context().close();
  });

  it("shows the answer while it streams, token by token", async () => {
    const page = await openPage(server.url);
    await page.getByLabel("Model").selectOption("scripted");
    // Every text the assistant bubble shows, recorded on each DOM change (runs in the page).
    await page.evaluate(RECORD_ASSISTANT_TEXTS);
    await send(page, "stream please");
    await page.locator(".message.assistant").getByText("the last word is here.").waitFor();
    const seen = (await page.evaluate("window.seenTexts")) as string[];
    const partial = seen.filter((text) => text.length < SLOW_ANSWER.length);
    expect(partial.length).toBeGreaterThan(0);
    for (const text of partial) expect(SLOW_ANSWER.startsWith(text.trimEnd())).toBe(true);
    await page.context().close();
  });

  it("rejoins a running run after a reload or from another browser, and Stop cancels it", async () => {
    const page = await openPage(server.url);
    await page.getByLabel("Model").selectOption("scripted");
    await send(page, "hang now");
    const stop = page.getByRole("button", { name: "Stop" });
    await stop.waitFor();
    await page.waitForURL(/\/chats\//);
    // A reload rejoins the running run's stream (the run goes on without the page).
    await page.reload();
    await page.locator(".message.human").getByText("hang now").waitFor();
    await stop.waitFor();
    // So does a page with no session state at all (another browser), which then stops it.
    const other = await openPage(page.url());
    await other.locator(".message.human").getByText("hang now").waitFor();
    await other.getByRole("button", { name: "Stop" }).click();
    await other.getByRole("status").getByText("Stopped.").waitFor();
    await other.getByRole("button", { name: "Send" }).waitFor();
    // The first page sees its stream end.
    await page.getByRole("button", { name: "Send" }).waitFor();
    const threadId = page.url().split("/").at(-1) ?? "";
    await expect
      .poll(async () => {
        const runs = await fetch(`${server.url}/api/threads/${threadId}/runs`).then(
          (response) => response.json() as Promise<Array<{ status: string }>>,
        );
        return runs.map((run) => run.status);
      })
      .toEqual(["interrupted"]);
    await other.context().close();
    await page.context().close();
  });

  it("Stop with a draft in the box stops the run and keeps the draft unsent", async () => {
    const page = await openPage(server.url);
    await page.getByLabel("Model").selectOption("scripted");
    await send(page, "hang now");
    const stop = page.getByRole("button", { name: "Stop" });
    await stop.waitFor();
    await page.waitForURL(/\/chats\//);
    await page.getByLabel("Message").fill("my next question");
    await stop.click();
    await page.getByRole("status").getByText("Stopped.").waitFor();
    await page.getByRole("button", { name: "Send" }).waitFor();
    expect(await page.getByLabel("Message").inputValue()).toBe("my next question");
    const threadId = page.url().split("/").at(-1) ?? "";
    const runs = await fetch(`${server.url}/api/threads/${threadId}/runs`).then(
      (response) => response.json() as Promise<Array<{ status: string }>>,
    );
    expect(runs.map((run) => run.status)).toEqual(["interrupted"]);
    await page.context().close();
  });

  it("uploads an attached file that the agent then reads", async () => {
    const page = await openPage(server.url);
    await page.getByLabel("Model").selectOption("scripted");
    await page.getByTestId("file-input").setInputFiles({
      name: "visits.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(CSV),
    });
    await page.locator(".composer .chip").getByText("visits.csv").waitFor();
    await send(page, "What is in the file I attached?");
    await page.locator(".message.human .chip").getByText("visits.csv").waitFor();
    await page.locator(".message.assistant").getByText("Kyoto has the most visits.").waitFor();
    const read = page.locator('.tool-step[data-tool="read_file"]');
    await read.locator("summary").click();
    await read.locator(".tool-result").getByText("Lisbon,3").waitFor();
    await page.context().close();
  });

  it("shows a clarification question whose option answers it", async () => {
    const page = await openPage(server.url);
    await page.getByLabel("Model").selectOption("scripted");
    await send(page, "plan a weekend trip");
    const card = page.getByRole("note");
    await card.getByText(QUESTION).waitFor();
    await card.getByRole("button", { name: "Lisbon" }).click();
    await page.locator(".message.human").getByText("Lisbon", { exact: true }).waitFor();
    await page.locator(".message.assistant").getByText("Lisbon it is").waitFor();
    expect(await card.getByRole("button", { name: "Kyoto" }).isDisabled()).toBe(true);
    await page.context().close();
  });

  it("shows the to-do list of a plan-mode run", async () => {
    const page = await openPage(server.url);
    await page.getByLabel("Model").selectOption("scripted");
    await page.getByRole("checkbox", { name: "Plan" }).check();
    await send(page, "make a plan");
    // (The todo middleware reminds the model of the open item, so the answer may repeat.)
    await page.locator(".message.assistant").getByText("The plan is under way.").first().waitFor();
    const todos = page.locator(".todos");
    await todos.getByText("To-dos · 1/2").waitFor();
    await todos.locator(".todo.completed").getByText("Gather the figures").waitFor();
    await todos.locator(".todo.in_progress").getByText("Write the summary").waitFor();
    await page.context().close();
  });

  it("shows an error when the run fails", async () => {
    const page = await openPage(server.url);
    await page.getByLabel("Model").selectOption("broken");
    await send(page, "anything");
    await page.getByRole("alert").getByText("The run failed.").waitFor();
    await page.getByRole("button", { name: "Send" }).waitFor();
    await page.context().close();
  });

  it("says so when the URL names a chat that does not exist", async () => {
    const page = await openPage(`${server.url}/chats/no-such-thread`);
    await page.getByRole("alert").getByText("This chat does not exist or was deleted.").waitFor();
    await page.context().close();
  });

  it("deletes a thread from the sidebar", async () => {
    const page = await openPage(server.url);
    await send(page, "hello");
    await page.locator(".message.assistant").getByText("offline demo model").waitFor();
    // The demo streams at a human pace: the run is over once Send is back.
    await page.getByRole("button", { name: "Send" }).waitFor();
    await page.waitForURL(/\/chats\//);
    const threadId = page.url().split("/").at(-1) ?? "";
    const row = page.locator(".thread", { has: page.locator(`[data-thread-id="${threadId}"]`) });
    await row.getByRole("button", { name: /^Delete / }).click();
    await row.getByRole("button", { name: "Delete?" }).click();
    await row.waitFor({ state: "detached" });
    await page.waitForURL(`${server.url}/`);
    const gone = await fetch(`${server.url}/api/threads/${threadId}`);
    expect(gone.status).toBe(404);
    await page.context().close();
  });

  it("with local auth: a wrong password shows an error, the right one opens the workspace", async () => {
    const registered = await fetch(`${authServer.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", password: "correct horse" }),
    });
    expect(registered.status).toBe(201);

    const page = await openPage(authServer.url);
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("Invalid email or password.").waitFor();

    await page.getByLabel("Password").fill("correct horse");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "New chat" }).waitFor();
    await page.getByText("ada@example.com").waitFor();

    // Mutating calls (thread creation, run stream, search) carry the CSRF header: a run works.
    await send(page, "hello");
    await page.locator(".message.assistant").getByText("offline demo model").waitFor();
    // The demo streams at a human pace: the run is over once Send is back.
    await page.getByRole("button", { name: "Send" }).waitFor();
    await page.reload();
    await page.locator(".thread.active").waitFor();
    await page.context().close();
  });
});
