/**
 * One real `fawn serve` for a Settings browser suite: local auth (an administrator and a plain
 * user, registered over HTTP), two scripted models, the shared web build, Chromium, and pages
 * opened already signed in (the session and CSRF cookies set on the browser context).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { type BrowserSession, registerUser } from "../../auth/helpers/http-session.js";
import { launchChromium, reportPageOnFailure, screenshotFolder } from "./chromium.js";
import { sharedWebBuild } from "./shared-web-build.js";
import { startWebGateway, type WebGateway } from "./web-gateway.js";

export const ADMIN_EMAIL = "admin@example.org";
export const ADMIN_PASSWORD = "admin password 1";
export const USER_EMAIL = "user@example.org";
export const USER_PASSWORD = "user password 1";

export interface SettingsFixture {
  server: WebGateway;
  shots: string;
  admin: BrowserSession;
  user: BrowserSession;
  /** A page at `path` at this width (900 px high above 800 px wide, else 844), signed in. */
  open(path: string, width: number, session?: BrowserSession): Promise<Page>;
  /** A JSON call as `session` (the administrator by default), CSRF header included. */
  api(method: string, path: string, body?: unknown, session?: BrowserSession): Promise<Response>;
  close(): Promise<void>;
}

export async function startSettingsFixture(name: string): Promise<SettingsFixture> {
  const webRoot = await sharedWebBuild();
  const shotFolder = await screenshotFolder(name);
  const browser: Browser = await launchChromium();
  const server = await startWebGateway({
    webRoot,
    config: (home) => ({
      auth: { mode: "local", allow_registration: true, admins: [ADMIN_EMAIL] },
      models: [
        {
          name: "quick",
          display_name: "Quick model",
          use: "scripted",
          model: "quick",
          script: join(home, "script.json"),
          supports_vision: true,
        },
        {
          name: "deep",
          display_name: "Deep thinker",
          use: "scripted",
          model: "deep",
          script: join(home, "script.json"),
          supports_thinking: true,
          context_window: 128000,
        },
      ],
    }),
  });
  await writeFile(
    join(server.home, "script.json"),
    JSON.stringify([{ match: ".*", turns: [{ content: "Noted." }] }]),
  );
  const admin = await registerUser(server.apiUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const user = await registerUser(server.apiUrl, USER_EMAIL, USER_PASSWORD);

  const cookiesOf = (session: BrowserSession) =>
    session.cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.url };
    });

  return {
    server,
    shots: shotFolder.dir,
    admin,
    user,
    async open(path, width, session = admin) {
      const context = await browser.newContext({
        viewport: { width, height: width > 800 ? 900 : 844 },
        acceptDownloads: true,
      });
      context.setDefaultTimeout(30_000);
      await context.addCookies(cookiesOf(session));
      const page = await context.newPage();
      reportPageOnFailure(page, name);
      await page.goto(`${server.url}${path}`);
      return page;
    },
    api(method, path, body, session = admin) {
      return fetch(`${server.apiUrl}${path}`, {
        method,
        headers: {
          cookie: session.cookie,
          "x-csrf-token": session.csrf,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    },
    async close() {
      await browser.close();
      await server.close();
      await shotFolder.remove();
    },
  };
}
