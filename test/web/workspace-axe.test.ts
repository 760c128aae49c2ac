/**
 * axe-core finds no serious or critical violation on any page of the workspace, in English and
 * in Chinese, at 1440 and 390 px: a new chat, a chat with messages, tool steps and the artifact
 * panel open on a file, the Teams page, Settings, Agents, Scheduled tasks, the command palette,
 * the shortcuts list, and the sign-in page of `auth.mode: local`. Each state is screenshotted.
 */
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locale } from "../../web/src/i18n/define-messages.js";
import { seriousAxeViolations } from "./helpers/axe.js";
import {
  launchChromium,
  reportPageOnFailure,
  requireChromium,
  screenshotFolder,
} from "./helpers/chromium.js";
import { sharedWebBuild } from "./helpers/shared-web-build.js";
import { TeamsApiStub } from "./helpers/teams-api-stub.js";
import { startWebGateway, type WebGateway } from "./helpers/web-gateway.js";

const hasChromium = await requireChromium();

const WIDTHS = [1440, 390];
const LOCALES: Locale[] = ["en", "zh-CN"];

describe.skipIf(!hasChromium)("axe on every page of the workspace", { timeout: 300_000 }, () => {
  let browser: Browser;
  let server: WebGateway;
  let authServer: WebGateway;
  let shots: { dir: string; remove: () => Promise<void> };
  /** A chat the demo model answered with a report: messages, tool steps and an artifact. */
  let reportPath = "";

  beforeAll(async () => {
    const webRoot = await sharedWebBuild();
    shots = await screenshotFolder("axe");
    browser = await launchChromium();
    server = await startWebGateway({ webRoot });
    authServer = await startWebGateway({ webRoot, config: () => ({ auth: { mode: "local" } }) });
    const page = await openPage(server, "/", 1440, "en", { report: false });
    await page.getByLabel("Message").fill("Write me a short report");
    await page.getByLabel("Message").press("Enter");
    await page
      .getByRole("complementary", { name: "Artifacts" })
      .getByRole("button", { name: "report.md" })
      .waitFor();
    await page.locator(".message.assistant").getByText("Highlights").first().waitFor();
    await page.getByRole("button", { name: "Send" }).waitFor();
    reportPath = new URL(page.url()).pathname;
    await page.context().close();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await authServer?.close();
    await shots?.remove();
  });

  async function openPage(
    target: WebGateway,
    path: string,
    width: number,
    locale: Locale,
    { report = true }: { report?: boolean } = {},
  ): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width, height: width > 800 ? 900 : 844 },
    });
    context.setDefaultTimeout(60_000);
    await context.addInitScript(
      `window.localStorage.setItem("fawn.locale", ${JSON.stringify(locale)})`,
    );
    const page = await context.newPage();
    if (report) reportPageOnFailure(page, "axe");
    await new TeamsApiStub().install(page);
    await page.goto(`${target.url}${path}`);
    return page;
  }

  async function check(page: Page, state: string, problems: string[]): Promise<void> {
    await page.screenshot({ path: join(shots.dir, `axe-${state}.png`) });
    for (const violation of await seriousAxeViolations(page))
      problems.push(`${state}: ${violation}`);
  }

  for (const width of WIDTHS) {
    for (const locale of LOCALES) {
      it(`finds nothing serious at ${width} px in ${locale}`, async () => {
        const problems: string[] = [];
        const tag = `${locale}-${width}`;
        const page = await openPage(server, "/", width, locale);
        await page.locator(".composer textarea").waitFor();
        await check(page, `new-chat-${tag}`, problems);

        await page.keyboard.press("Control+k");
        await page.getByRole("dialog").getByRole("combobox").waitFor();
        await check(page, `palette-${tag}`, problems);
        await page.keyboard.press("Escape");
        await page.keyboard.press("Control+/");
        await page.getByRole("dialog").locator("table").waitFor();
        await check(page, `shortcuts-${tag}`, problems);
        await page.keyboard.press("Escape");

        await page.goto(`${server.url}${reportPath}`);
        const panel = page.locator(".artifacts");
        await page.locator(".tool-step").first().waitFor();
        await check(page, `chat-${tag}`, problems);
        // Narrow, the panel waits for the header's button.
        if (width <= 800) await page.locator(".artifacts-toggle").click();
        await panel.locator(".artifact-open").first().click();
        await panel.locator(".artifact-preview .markdown").waitFor();
        await check(page, `artifact-${tag}`, problems);

        for (const path of ["/teams", "/settings", "/agents", "/scheduled-tasks"]) {
          await page.goto(`${server.url}${path}`);
          await page.locator(".page-loading").waitFor({ state: "detached" });
          await page.locator(".workspace > :is(section, main)").first().waitFor();
          if (path === "/teams") await page.locator(".team-form").waitFor();
          await check(page, `${path.slice(1)}-${tag}`, problems);
        }
        await page.context().close();

        const login = await openPage(authServer, "/", width, locale);
        await login.locator(".login-card").waitFor();
        await check(login, `login-${tag}`, problems);
        await login.context().close();
        expect(problems).toEqual([]);
      });
    }
  }
});
