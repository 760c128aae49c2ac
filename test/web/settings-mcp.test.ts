/**
 * Settings → MCP servers in real Chromium against a real `fawn serve` (local auth): an
 * administrator switches a server off, edits one without losing its masked secret, adds an HTTP
 * server, sees a refused stdio command as the server's sentence, removes a server and resets the
 * sessions — each change checked in the API and in extensions_config.json; a user who is not an
 * administrator gets a clear sentence instead of the list. axe at 1440 and 390 px.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousAxeViolations } from "./helpers/axe.js";
import { requireChromium } from "./helpers/chromium.js";
import { type SettingsFixture, startSettingsFixture } from "./helpers/settings-fixture.js";

const hasChromium = await requireChromium();

const SECRET = "ghp_settings-secret";

interface ServerView {
  enabled: boolean;
  type: string;
  env: Record<string, string>;
  headers: Record<string, string>;
  url: string | null;
  description: string | null;
}

describe.skipIf(!hasChromium)("Settings → MCP servers", { timeout: 120_000 }, () => {
  let f: SettingsFixture;

  beforeAll(async () => {
    f = await startSettingsFixture("settings-mcp");
    const seeded = await f.api("PUT", "/mcp/config", {
      mcp_servers: {
        github: {
          type: "stdio",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-github"],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: SECRET },
          description: "GitHub repositories",
        },
      },
    });
    expect(seeded.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await f?.close();
  });

  async function servers(): Promise<Record<string, ServerView>> {
    const answer = (await (await f.api("GET", "/mcp/config")).json()) as {
      mcp_servers: Record<string, ServerView>;
    };
    return answer.mcp_servers;
  }

  async function storedFile(): Promise<{ mcpServers: Record<string, Record<string, unknown>> }> {
    return JSON.parse(await readFile(join(f.server.home, "extensions_config.json"), "utf8"));
  }

  it("switches, edits (keeping the secret), adds, refuses, removes and resets", async () => {
    const page = await f.open("/settings/mcp", 1440);
    const github = page.locator(".settings-item").filter({ hasText: "GitHub repositories" });
    await github.getByText("npx -y @modelcontextprotocol/server-github").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole("switch", { name: "Use github" }).click();
    await page.getByRole("status").getByText("github is off.").waitFor();
    expect((await servers()).github?.enabled).toBe(false);

    // Edit: the secret shows as ***; saving it unchanged keeps the stored value.
    await page.getByRole("button", { name: "Edit github" }).click();
    const edit = page.getByRole("form", { name: "Edit github" });
    expect(await edit.getByLabel("Environment, one NAME=value per line").inputValue()).toBe(
      "GITHUB_PERSONAL_ACCESS_TOKEN=***",
    );
    await edit.getByLabel("Description").fill("GitHub issues and code");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(f.shots, "settings-mcp-edit-1440.png") });
    await edit.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Saved github.").waitFor();
    expect((await servers()).github).toMatchObject({
      description: "GitHub issues and code",
      enabled: false,
    });
    expect((await storedFile()).mcpServers.github?.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: SECRET,
    });

    // Add an HTTP server with a header.
    await page.getByRole("button", { name: "Add a server" }).click();
    const add = page.getByRole("form", { name: "New MCP server" });
    await add.getByLabel("Name", { exact: true }).fill("docs");
    await add.getByLabel("Transport").selectOption("http");
    await add.getByLabel("URL").fill("http://127.0.0.1:9/mcp");
    await add
      .getByLabel("Headers, one Name: value per line")
      .fill("Authorization: Bearer docs-key");
    await add.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").getByText("Saved docs.").waitFor();
    const afterAdd = await servers();
    expect(afterAdd.docs).toMatchObject({
      type: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "***" },
    });
    expect((await storedFile()).mcpServers.docs?.headers).toEqual({
      Authorization: "Bearer docs-key",
    });
    expect((await storedFile()).mcpServers.github?.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: SECRET,
    });

    // A stdio command outside the allow-list: the server's sentence, nothing stored.
    await page.getByRole("button", { name: "Add a server" }).click();
    const refused = page.getByRole("form", { name: "New MCP server" });
    await refused.getByLabel("Name", { exact: true }).fill("local-python");
    await refused.getByLabel("Command").fill("python3");
    await refused.getByRole("button", { name: "Save" }).click();
    await refused.getByRole("alert").waitFor();
    expect(await refused.getByRole("alert").textContent()).toMatch(/python3/);
    expect(Object.keys(await servers()).sort()).toEqual(["docs", "github"]);
    await refused.getByRole("button", { name: "Cancel" }).click();

    const docs = page.locator(".settings-item").filter({ hasText: "http://127.0.0.1:9/mcp" });
    await docs.getByRole("button", { name: "Remove" }).click();
    await docs.getByRole("button", { name: "Yes" }).click();
    await page.getByRole("status").getByText("docs was removed.").waitFor();
    expect(Object.keys(await servers())).toEqual(["github"]);
    expect((await storedFile()).mcpServers.github?.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: SECRET,
    });

    await page.getByRole("button", { name: "Reset sessions" }).click();
    await page
      .getByRole("status")
      .getByText("Every MCP session ended; the next run reconnects.")
      .waitFor();
    await page.context().close();
  });

  it("a user who is not an administrator is told so, at 390 px", async () => {
    const page = await f.open("/settings/mcp", 390, f.user);
    await page
      .getByRole("alert")
      .getByText(/Only an administrator can manage MCP servers/)
      .waitFor();
    expect(await page.getByRole("button", { name: "Add a server" }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(f.shots, "settings-mcp-forbidden-390.png") });
    await page.context().close();
  });
});
