/**
 * The Teams page in real Chromium against the real thing: the gateway `fawn serve` builds, the
 * built-in agent-teams plugin (its service ticking jobs) and a scripted lead-agent model. A team is
 * created in the UI; a task sent to a member runs for real — the member's scripted run writes an
 * output file, registers it with the plugin's tool, presents it and answers — and the page shows
 * the job reach `completed` live and the artifact turn ready; opening it previews the bytes the
 * plugin's artifact route serves. Screenshots at 1440 and 390 px land in a temp folder
 * (`FAWN_WEB_SHOTS=<dir>` keeps them).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginToolName } from "../../src/agent/tools/plugin-tools.js";
import { NAMESPACE } from "../../src/plugins/agent-teams/index.js";
import { buildWeb } from "../../web/ensure-web-build.js";
import { launchChromium, reportPageOnFailure, requireChromium } from "./helpers/chromium.js";
import { startWebGateway, type WebGateway } from "./helpers/web-gateway.js";

const hasChromium = await requireChromium();

const BRIEF = "# Launch brief\n\nShip the beta on **Tuesday**, to Europe first.\n";
const ANSWER = "The launch brief is written and registered as brief.md.";
const OUTPUT = "/mnt/user-data/outputs/brief.md";

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

/** The member's run for a task naming the brief: write it, register it, present it, answer. */
function script(teamId: string): unknown[] {
  return [
    {
      match: "write the launch brief",
      turns: [
        {
          tool_calls: [
            {
              name: "write_file",
              args: { description: "the brief", path: OUTPUT, content: BRIEF },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: pluginToolName(NAMESPACE, "register_team_artifact"),
              args: { team_id: teamId, request_id: "brief-1", name: "brief.md", path: OUTPUT },
            },
          ],
        },
        { tool_calls: [{ name: "present_files", args: { filepaths: [OUTPUT] } }] },
        { content: ANSWER },
      ],
    },
    { turns: [{ content: "Nothing to do." }] },
  ];
}

describe.skipIf(!hasChromium)(
  "the Teams page against the real plugin",
  { timeout: 180_000 },
  () => {
    let webRoot: string;
    let shots: string;
    let browser: Browser;
    let server: WebGateway;

    beforeAll(async () => {
      webRoot = await mkdtemp(join(tmpdir(), "fawn-teams-live-dist-"));
      shots = process.env.FAWN_WEB_SHOTS ?? (await mkdtemp(join(tmpdir(), "fawn-teams-shots-")));
      await buildWeb(webRoot);
      browser = await launchChromium();
      server = await startWebGateway({
        webRoot,
        config: (home) => ({
          models: [
            { name: "scripted", use: "scripted", model: "scripted", script: join(home, "s.json") },
          ],
          plugins: [{ use: "agent-teams", config: { enabled: true } }],
        }),
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (webRoot) await rm(webRoot, { recursive: true, force: true });
      if (shots && !process.env.FAWN_WEB_SHOTS) await rm(shots, { recursive: true, force: true });
    });

    async function openPage(path: string, width: number): Promise<Page> {
      const context = await browser.newContext({
        viewport: { width, height: width > 800 ? 900 : 844 },
      });
      context.setDefaultTimeout(60_000);
      const page = await context.newPage();
      reportPageOnFailure(page, "teams-live");
      await page.goto(`${server.url}${path}`);
      return page;
    }

    it("runs a member's task for real: completed live, its artifact ready and previewed", async () => {
      const page = await openPage("/", 1440);
      await page.getByRole("link", { name: "Teams" }).click();
      await page.getByText("No teams yet.").waitFor();

      const form = page.getByRole("form", { name: "New team" });
      await form.getByLabel("Name", { exact: true }).fill("Launch crew");
      await form.getByLabel("Goal").fill("Plan and write the beta launch.");
      await form.getByLabel("Member 1 name").fill("Writer");
      await form.getByLabel("Member 2 name").fill("Critic");
      await form.getByRole("button", { name: "Create team" }).click();
      await page.waitForURL(/\/teams\/[0-9a-f]{32}$/);
      const teamId = page.url().split("/").at(-1) ?? "";
      await page.getByRole("heading", { name: "Launch crew" }).waitFor();
      // The script names the team the page created; the model reads it when the run starts.
      await writeFile(join(server.home, "s.json"), JSON.stringify(script(teamId)));

      await page.evaluate(RECORD_JOB_STATUSES);
      await page.getByLabel("Send to").selectOption({ label: "Writer" });
      await page.getByLabel("Task").fill("Write the launch brief");
      await page.getByLabel("Task").press("Enter");
      const job = page.locator(".job", { hasText: "Write the launch brief" });
      await job.waitFor();
      await job.and(page.locator('[data-status="completed"]')).waitFor({ timeout: 120_000 });
      await job.getByText(ANSWER).waitFor();
      // Live: the card showed the job unfinished first, then completed, without a reload.
      const seen = (await page.evaluate("window.jobStatuses")) as Record<string, string[]>;
      const statuses = Object.values(seen)[0] ?? [];
      expect(statuses.at(-1)).toBe("completed");
      expect(statuses.length).toBeGreaterThan(1);
      expect(statuses.slice(0, -1).every((s) => ["queued", "running"].includes(s))).toBe(true);

      const artifacts = page.getByRole("region", { name: "Artifacts" });
      const brief = artifacts.locator('[data-artifact$="@1"]');
      await brief.getByText("ready").waitFor();
      await brief.getByText("from Writer").waitFor();
      await brief.getByRole("button", { name: "brief.md" }).click();
      const preview = page.getByTestId("team-artifact-preview");
      await preview.getByRole("heading", { name: "Launch brief" }).waitFor();
      await preview.getByText("Tuesday").waitFor();
      await page.screenshot({ path: join(shots, "team-live-1440.png"), fullPage: true });

      // The bytes the preview showed are the route's, byte for byte.
      const served = await page.evaluate(
        async (url) => {
          const response = await fetch(url);
          return {
            status: response.status,
            type: response.headers.get("content-type"),
            text: await response.text(),
          };
        },
        `/api/extensions/${NAMESPACE}/teams/${teamId}/artifacts/${await artifactId(brief)}/1`,
      );
      expect(served).toEqual({ status: 200, type: "text/markdown; charset=utf-8", text: BRIEF });
      await page.context().close();

      // The same team at 390 px: nothing overflows sideways, the preview still opens.
      const narrow = await openPage(`/teams/${teamId}`, 390);
      const narrowArtifacts = narrow.getByRole("region", { name: "Artifacts" });
      await narrowArtifacts.getByRole("button", { name: "brief.md" }).click();
      await narrow
        .getByTestId("team-artifact-preview")
        .getByRole("heading", { name: "Launch brief" })
        .waitFor();
      const overflow = await narrow.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
      );
      expect(overflow).toBe(0);
      await narrow.screenshot({ path: join(shots, "team-live-390.png"), fullPage: true });
      await narrow.context().close();
    });
  },
);

/** `data-artifact` is `<artifact id>@<version>`. */
async function artifactId(row: ReturnType<Page["locator"]>): Promise<string> {
  const value = (await row.getAttribute("data-artifact")) ?? "";
  return value.split("@")[0] ?? "";
}
