/**
 * Settings → Account in real Chromium against a real `fawn serve`: under local auth the signed-in
 * email, a password change (a wrong current password and a mismatch refused with sentences; the
 * new password then signs in and this browser stays signed in), an API token created — shown
 * once, working as a Bearer token — and deleted (then refused). With auth off, the panel says
 * tokens need local auth. axe at 1440 and 390 px.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, postJson, registerUser } from "../auth/helpers/http-session.js";
import { seriousAxeViolations } from "./helpers/axe.js";
import { requireChromium } from "./helpers/chromium.js";
import { type SettingsFixture, startSettingsFixture } from "./helpers/settings-fixture.js";
import { sharedWebBuild } from "./helpers/shared-web-build.js";
import { startWebGateway, type WebGateway } from "./helpers/web-gateway.js";

const hasChromium = await requireChromium();

describe.skipIf(!hasChromium)("Settings → Account", { timeout: 120_000 }, () => {
  let f: SettingsFixture;
  let open: WebGateway;
  let ada: BrowserSession;

  beforeAll(async () => {
    f = await startSettingsFixture("settings-account");
    // Auth off: the default config.
    open = await startWebGateway({ webRoot: await sharedWebBuild() });
    ada = await registerUser(f.server.apiUrl, "ada@example.org", "first password");
  }, 180_000);

  afterAll(async () => {
    await open?.close();
    await f?.close();
  });

  it("changes the password: wrong current and mismatched new ones are refused", async () => {
    const page = await f.open("/settings/account", 1440, ada);
    await page.getByText("ada@example.org").first().waitFor();
    const form = page.getByRole("form", { name: "Change password" });
    await form.getByLabel("Current password").fill("not my password");
    await form.getByLabel("New password", { exact: true }).fill("second password");
    await form.getByLabel("New password again").fill("second password");
    await form.getByRole("button", { name: "Change password" }).click();
    const alert = form.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/password/i);

    await form.getByLabel("Current password").fill("first password");
    await form.getByLabel("New password again").fill("second passwort");
    await form.getByRole("button", { name: "Change password" }).click();
    await alert.getByText("The two new passwords are not the same.").waitFor();

    await form.getByLabel("New password again").fill("second password");
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByRole("status").getByText("Your password was changed.").waitFor();
    const login = (password: string) =>
      postJson(`${f.server.apiUrl}/auth/login`, { email: "ada@example.org", password });
    expect((await login("first password")).status).toBe(401);
    expect((await login("second password")).status).toBe(200);

    // This browser got a new session: the page keeps working after a reload.
    await page.reload();
    await page.getByRole("form", { name: "Change password" }).waitFor();
    await page.getByText("ada@example.org").first().waitFor();
    await page.context().close();
  });

  it("creates an API token (shown once, works as Bearer), lists it and deletes it", async () => {
    const page = await f.open("/settings/account", 390);
    await page.getByText("You have no API tokens.").waitFor();
    await page.getByLabel("Token name").fill("ci runner");
    await page.getByRole("button", { name: "Create a token" }).click();
    await page
      .getByText("Token ci runner created. Copy it now: it is shown only this once.")
      .waitFor();
    const token = await page.getByLabel("The new token").inputValue();
    expect(token).toMatch(/^fawn_/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(f.shots, "settings-account-token-390.png") });

    const me = await fetch(`${f.server.apiUrl}/auth/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe("admin@example.org");
    const listed = (await (await f.api("GET", "/auth/tokens")).json()) as { name: string }[];
    expect(listed.map((entry) => entry.name)).toEqual(["ci runner"]);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText(/^(Copied\.|Copying was refused)/).waitFor();

    // Once dismissed, the token is not shown again, not even after a reload.
    await page.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.getByLabel("The new token").count()).toBe(0);
    await page.reload();
    const row = page.locator(".settings-item").filter({ hasText: "ci runner" });
    await row.getByText(token.slice(0, 11)).waitFor();
    expect(await page.getByText(token).count()).toBe(0);

    await row.getByRole("button", { name: "Delete" }).click();
    await row.getByRole("button", { name: "Yes" }).click();
    await page
      .getByRole("status")
      .getByText("Token ci runner was deleted; programs using it are now refused.")
      .waitFor();
    await page.getByText("You have no API tokens.").waitFor();
    const refused = await fetch(`${f.server.apiUrl}/auth/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(401);
    await page.context().close();
  });

  it("with auth off says tokens need local auth", async () => {
    const page = await f.open("/settings/account", 1440);
    await page.goto(`${open.url}/settings/account`);
    await page.getByText(/Accounts are off on this server \(auth mode: disabled\)/).waitFor();
    expect(await page.getByRole("button", { name: "Create a token" }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(f.shots, "settings-account-off-1440.png") });
    await page.context().close();
  });
});
