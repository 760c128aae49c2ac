/**
 * The Teams page in real Chromium, served by a real gateway, with the agent-teams plugin's HTTP
 * surface played by `helpers/teams-api-stub.ts` (page.route on `/api/extensions*`): the nav entry
 * appears only when the plugin is loaded (its URL says so otherwise); a team is created; tasks sent
 * to members advance live (queued → running → completed), an artifact turns ready and opens and
 * downloads, a ready artifact rides along with a later task, a clarification is answered, a failure
 * shows its error, a running job is cancelled, a refused delete shows the server's message; polling
 * stops while the tab is hidden; a member links to its thread. Screenshots at 1440 and 390 px land
 * in a temp folder (`FAWN_WEB_SHOTS=<dir>` keeps them).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWeb } from "../../web/ensure-web-build.js";
import { launchChromium, reportPageOnFailure, requireChromium } from "./helpers/chromium.js";
import {
  BRIEF,
  DELETE_REFUSED,
  FAILURE,
  QUESTION,
  TeamsApiStub,
} from "./helpers/teams-api-stub.js";
import { startWebGateway, type WebGateway } from "./helpers/web-gateway.js";

const hasChromium = await requireChromium();

/** Statuses each job card showed, in order, recorded on every DOM change (runs in the page). */
const RECORD_JOB_STATUSES = `
  window.jobStatuses = {};
  new MutationObserver(() => {
    for (const job of document.querySelectorAll(".job[data-job-id]")) {
      const seen = (window.jobStatuses[job.dataset.jobId] ??= []);
      if (seen.at(-1) !== job.dataset.status) seen.push(job.dataset.status);
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
`;

const HIDE_TAB = `
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
`;
const SHOW_TAB = `
  delete document.hidden;
  delete document.visibilityState;
  document.dispatchEvent(new Event("visibilitychange"));
`;

describe.skipIf(!hasChromium)("the Teams page in Chromium", { timeout: 120_000 }, () => {
  let webRoot: string;
  let shots: string;
  let browser: Browser;
  let server: WebGateway;

  beforeAll(async () => {
    webRoot = await mkdtemp(join(tmpdir(), "fawn-teams-dist-"));
    // FAWN_WEB_SHOTS keeps the screenshots (to look at them); otherwise a temp folder, removed.
    shots = process.env.FAWN_WEB_SHOTS ?? (await mkdtemp(join(tmpdir(), "fawn-teams-shots-")));
    await buildWeb(webRoot);
    browser = await launchChromium();
    server = await startWebGateway({ webRoot });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (webRoot) await rm(webRoot, { recursive: true, force: true });
    if (shots && !process.env.FAWN_WEB_SHOTS) await rm(shots, { recursive: true, force: true });
  });

  async function openPage(
    path: string,
    options: { stub?: TeamsApiStub; width?: number } = {},
  ): Promise<Page> {
    const width = options.width ?? 1440;
    const context = await browser.newContext({
      acceptDownloads: true,
      viewport: { width, height: width > 800 ? 900 : 844 },
    });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    reportPageOnFailure(page, "teams");
    if (options.stub) await options.stub.install(page);
    await page.goto(`${server.url}${path}`);
    return page;
  }

  async function createTeam(page: Page, members: string[]): Promise<string> {
    const form = page.getByRole("form", { name: "New team" });
    const create = form.getByRole("button", { name: "Create team" });
    await form.getByLabel("Name", { exact: true }).fill("Launch crew");
    await form.getByLabel("Goal").fill("Plan and write the beta launch.");
    expect(await create.isDisabled()).toBe(true);
    for (const [index, name] of members.entries()) {
      if (index >= 2) await form.getByRole("button", { name: "Add member" }).click();
      await form.getByLabel(`Member ${index + 1} name`).fill(name);
    }
    expect(await form.getByLabel("Member 1 agent").inputValue()).toBe("lead_agent");
    await create.click();
    await page.waitForURL(/\/teams\/[0-9a-f]{32}$/);
    return page.url().split("/").at(-1) ?? "";
  }

  async function sendTask(page: Page, member: string, text: string): Promise<void> {
    await page.getByLabel("Send to").selectOption({ label: member });
    await page.getByLabel("Task").fill(text);
    await page.getByLabel("Task").press("Enter");
    await page.locator(".job", { hasText: text }).waitFor();
  }

  const jobCard = (page: Page, text: string) => page.locator(".job", { hasText: text });

  it("shows no Teams entry when the server has no agent-teams plugin", async () => {
    const page = await openPage("/");
    await page.getByRole("button", { name: "New chat" }).waitFor();
    // The listing has settled once the page is idle; the entry never appeared.
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("link", { name: "Teams" }).count()).toBe(0);
    // Its URL says why there is nothing to show.
    await page.goto(`${server.url}/teams`);
    await page.getByText("This server does not run the agent-teams plugin.").waitFor();
    await page.context().close();
  });

  it("creates a team, runs tasks live, shows artifacts, answers a clarification, cancels", async () => {
    const page = await openPage("/", { stub: new TeamsApiStub() });
    await page.evaluate(RECORD_JOB_STATUSES);

    // The nav entry appears with the plugin, and the keyboard reaches it.
    const nav = page.getByRole("link", { name: "Teams" });
    await nav.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/teams`);
    await page.getByText("No teams yet.").waitFor();

    const teamId = await createTeam(page, ["Writer", "Planner", "Critic"]);
    await page.getByRole("heading", { name: "Launch crew" }).waitFor();
    // The list has it now; its row opens it again.
    await page.getByRole("button", { name: "← Teams" }).click();
    const row = page.locator(`[data-team-id="${teamId}"]`);
    await row.getByText("Writer, Planner, Critic").waitFor();
    await shoot(page, "teams-1440");
    await row.click();
    await page.waitForURL(`${server.url}/teams/${teamId}`);
    await page.getByText("No jobs yet.").waitFor();
    const members = page.getByRole("region", { name: "Members" });
    for (const name of ["Writer", "Planner", "Critic"])
      await members.getByRole("link", { name }).waitFor();

    // A task advances on its own: queued → running → completed, and its artifact becomes ready.
    await page.evaluate(RECORD_JOB_STATUSES);
    await sendTask(page, "Writer", "Write the launch brief");
    const write = jobCard(page, "Write the launch brief");
    await expectStatus(write, "completed");
    await write.getByText("Done: Write the launch brief").waitFor();
    const seen = (await page.evaluate("window.jobStatuses")) as Record<string, string[]>;
    expect(Object.values(seen)).toContainEqual(["queued", "running", "completed"]);

    const artifacts = page.getByRole("region", { name: "Artifacts" });
    const brief = artifacts.locator('[data-artifact$="@1"]');
    await brief.getByText("ready").waitFor();
    await brief.getByText("from Writer").waitFor();
    await brief.getByRole("button", { name: "brief.md" }).click();
    await artifacts.getByRole("heading", { name: "Launch brief" }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      brief.getByRole("button", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("brief.md");
    expect(await readFile(await download.path(), "utf8")).toBe(BRIEF);

    // A later task carries the ready artifact; the member asks a question that is answered.
    await page.getByRole("checkbox", { name: "brief.md v1" }).check();
    await sendTask(page, "Planner", "Plan the launch from the brief");
    const plan = jobCard(page, "Plan the launch from the brief");
    await plan.locator(".chip").getByText("brief.md v1").waitFor();
    const question = plan.getByRole("note");
    await question.getByText(QUESTION).waitFor();
    await shoot(page, "team-clarification");
    await question.getByLabel("Answer").fill("Europe");
    await question.getByLabel("Answer").press("Enter");
    await plan.getByText("Planned for").waitFor();
    await plan.getByText("Europe").waitFor();
    await expectStatus(plan, "completed");

    // A failure shows its error.
    await sendTask(page, "Critic", "Break the build on purpose");
    const broken = jobCard(page, "Break the build on purpose");
    await broken.getByText(FAILURE).waitFor();
    await expectStatus(broken, "failed");

    // Deleting while a job runs is refused with the server's message; Cancel ends the job.
    await sendTask(page, "Critic", "Hold the line");
    const hold = jobCard(page, "Hold the line");
    await expectStatus(hold, "running");
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("button", { name: "Delete team?" }).click();
    await page.getByRole("alert").getByText(DELETE_REFUSED).waitFor();
    await hold.getByRole("button", { name: "Cancel the job for Critic" }).click();
    await expectStatus(hold, "cancelled");
    expect(await hold.getByRole("button", { name: /^Cancel/ }).count()).toBe(0);
    await shoot(page, "team-1440");

    // The member's name opens its conversation in the chat view.
    const threadHref = await members.getByRole("link", { name: "Writer" }).getAttribute("href");
    expect(threadHref).toMatch(/^\/chats\/[0-9a-f-]{36}$/);
    await members.getByRole("link", { name: "Writer" }).click();
    await page.waitForURL(`${server.url}${threadHref}`);
    await page.getByRole("region", { name: "Chat" }).waitFor();

    // Back on the team, it deletes now that nothing runs, and the list is empty again.
    await page.goBack();
    await page.getByRole("heading", { name: "Launch crew" }).waitFor();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("button", { name: "Delete team?" }).click();
    await page.waitForURL(`${server.url}/teams`);
    await page.getByText("No teams yet.").waitFor();
    await page.context().close();
  });

  it("stops polling while the tab is hidden and resumes when it shows again", async () => {
    const page = await openPage("/teams", { stub: new TeamsApiStub() });
    await createTeam(page, ["Writer", "Planner"]);
    const polls: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/actions/get")) polls.push(request.url());
    });
    await page.waitForRequest((request) => request.url().endsWith("/actions/get"));

    await page.evaluate(HIDE_TAB);
    const before = polls.length;
    // Longer than two poll intervals: a visible tab would have asked twice meanwhile.
    await page.waitForTimeout(4_000);
    expect(polls.length - before).toBeLessThanOrEqual(1);

    const resumed = page.waitForRequest((request) => request.url().endsWith("/actions/get"));
    await page.evaluate(SHOW_TAB);
    await resumed;
    await page.context().close();
  });

  it("shows the server's message when creating a team is refused", async () => {
    const page = await openPage("/teams", { stub: new TeamsApiStub() });
    const form = page.getByRole("form", { name: "New team" });
    await form.getByLabel("Name", { exact: true }).fill("Twins");
    await form.getByLabel("Goal").fill("Disagree.");
    await form.getByLabel("Member 1 name").fill("Sam");
    await form.getByLabel("Member 2 name").fill("Sam");
    await form.getByRole("button", { name: "Create team" }).click();
    await form.getByRole("alert").getByText("Member names must be distinct.").waitFor();
    expect(page.url()).toBe(`${server.url}/teams`);
    await page.context().close();
  });

  it("works at 390 px: the nav, the form and a team's jobs and artifacts", async () => {
    const stub = new TeamsApiStub();
    const page = await openPage("/", { stub, width: 390 });
    // Below 800 px the workspace nav is in the drawer the top bar's menu opens.
    await page.getByRole("button", { name: "Open the menu" }).click();
    await page.getByRole("link", { name: "Teams" }).click();
    await page.getByText("No teams yet.").waitFor();
    await shoot(page, "teams-390");
    await createTeam(page, ["Writer", "Planner"]);
    await sendTask(page, "Writer", "Write the launch brief");
    await expectStatus(jobCard(page, "Write the launch brief"), "completed");
    await sendTask(page, "Planner", "Plan the launch");
    await jobCard(page, "Plan the launch").getByText(QUESTION).waitFor();
    const artifacts = page.getByRole("region", { name: "Artifacts" });
    await artifacts.getByRole("button", { name: "brief.md" }).click();
    await artifacts.getByRole("heading", { name: "Launch brief" }).waitFor();
    // Nothing overflows sideways.
    const overflow = await page.evaluate(
      "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    );
    expect(overflow).toBe(0);
    await shoot(page, "team-390", true);
    await page.context().close();
  });

  async function expectStatus(job: ReturnType<typeof jobCard>, status: string): Promise<void> {
    await job.and(job.page().locator(`[data-status="${status}"]`)).waitFor();
  }

  async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
  }
});
