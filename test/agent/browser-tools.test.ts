/**
 * The reference's browser tools on a real headless Chromium, against a small site on
 * 127.0.0.1: navigate, refs, click, type and submit, read text, go back, screenshot; the
 * private-address guard; sessions per thread, reused, closed when idle.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { Command } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BrowserSessionPool,
  closeBrowserSessions,
} from "../../src/agent/tools/browser/browser-session-pool.js";
import { parseBrowserSettings } from "../../src/agent/tools/browser/browser-settings.js";
import {
  type ConfiguredToolEntry,
  createConfiguredTools,
} from "../../src/agent/tools/configured-tools.js";
import { describeConfiguredTools } from "../../src/agent/tools/describe-configured-tools.js";
import type { Logger } from "../../src/core/logger.js";
import { DEFAULT_USER_ID, FawnPaths } from "../../src/core/paths.js";
import { CHROMIUM_PATH, requireChromium } from "../web/helpers/chromium.js";

const hasChromium = await requireChromium();
const ACTIONS = [
  "navigate",
  "snapshot",
  "click",
  "type",
  "get_text",
  "back",
  "screenshot",
  "close",
];

const SCOPE = { threadId: "thread-a", userId: DEFAULT_USER_ID };
const silent: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
};

let server: Server;
let site = "";
let home = "";
const homes: string[] = [];

function page(title: string, body: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const port = (server.address() as AddressInfo).port;
    const send = (html: string) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(html);
    };
    if (url.pathname === "/") {
      send(
        page(
          "Home",
          `<h1>Welcome home</h1><a href="/form">Go to form</a><p>${"filler ".repeat(800)}</p>`,
        ),
      );
    } else if (url.pathname === "/form") {
      send(
        page(
          "Form",
          `<form action="/result"><input name="q" placeholder="Search words"><button type="submit">Send</button></form><a href="http://127.0.0.2:${port}/secret">Internal</a>`,
        ),
      );
    } else if (url.pathname === "/result") {
      send(page("Result", `<p>You searched: ${url.searchParams.get("q") ?? ""}</p>`));
    } else if (url.pathname === "/redirect") {
      res.writeHead(302, { location: `http://127.0.0.2:${port}/secret` });
      res.end();
    } else {
      send(page("Secret", "<p>internal data</p>"));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  home = await newHome();
});

afterAll(async () => {
  await Promise.all(homes.map((dir) => closeBrowserSessions(dir)));
  await new Promise((resolve) => server.close(resolve));
  await Promise.all(homes.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function newHome(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "fawn-browser-"));
  homes.push(dir);
  return dir;
}

function entries(launch: Record<string, unknown>): ConfiguredToolEntry[] {
  return ACTIONS.map((action) => ({
    name: `browser_${action}`,
    group: "browser",
    use: `deerflow.community.browser_automation.tools:browser_${action}_tool`,
    ...(action === "navigate" ? { executable_path: CHROMIUM_PATH, ...launch } : {}),
    ...(action === "get_text" ? { max_chars: 500 } : {}),
  }));
}

type Tools = Record<string, StructuredToolInterface>;

function buildTools(dir: string, launch: Record<string, unknown>, seams = {}): Tools {
  const built = createConfiguredTools(entries(launch), {
    paths: new FawnPaths(dir),
    fetchSeams: seams,
    env: {},
  });
  return Object.fromEntries(built.map((tool) => [tool.name, tool]));
}

/** Calls a tool as the agent does (a tool call in a thread); its text, and any artifacts. */
async function call(
  tools: Tools,
  name: string,
  args: Record<string, unknown> = {},
  thread = "thread-a",
): Promise<{ text: string; artifacts: string[] }> {
  const tool = tools[name];
  if (!tool) throw new Error(`no tool ${name}`);
  const answer: unknown = await tool.invoke(
    { name, args, id: `call-${name}`, type: "tool_call" },
    { configurable: { thread_id: thread } },
  );
  if (answer instanceof Command) {
    const update = answer.update as { artifacts: string[]; messages: Array<{ content: unknown }> };
    return { artifacts: update.artifacts, text: String(update.messages[0]?.content) };
  }
  const content =
    typeof answer === "object" && answer && "content" in answer ? answer.content : answer;
  return { text: String(content), artifacts: [] };
}

function refOf(text: string, label: RegExp): number {
  const line = text
    .split("\n")
    .find((candidate) => /^\[\d+\]/.test(candidate) && label.test(candidate));
  const ref = Number(line?.match(/^\[(\d+)\]/)?.[1]);
  if (!ref) throw new Error(`no element ${label} in:\n${text}`);
  return ref;
}

describe.runIf(hasChromium)("browser tools", () => {
  it("describes every browser entry as built on this machine", () => {
    const statuses = describeConfiguredTools(entries({}), { env: {} });
    expect(statuses.map((status) => status.status)).toEqual(ACTIONS.map(() => "built"));
    expect(statuses[0]?.detail).toBe(`browser via Chromium at ${CHROMIUM_PATH}`);
  });

  it("navigates, clicks a link, types and submits, reads text, goes back, saves a screenshot", async () => {
    const tools = buildTools(home, { allow_private_addresses: true });
    const opened = await call(tools, "browser_navigate", { url: `${site}/` });
    expect(opened.text).toMatch(
      new RegExp(`^Navigated to ${site}/\\.\n\nURL: ${site}/\nTitle: Home\n\n`),
    );
    expect(opened.text).toContain(
      "Interactive elements (address them by [ref] number):\n[1] a: Go to form",
    );
    expect(opened.text).toContain("Visible text (excerpt):\nWelcome home");
    expect(opened.text.length).toBeLessThan(2500);

    const again = await call(tools, "browser_snapshot");
    expect(again.text).toMatch(/^URL: .*\/\nTitle: Home/);

    const clicked = await call(tools, "browser_click", { ref: refOf(again.text, /Go to form/) });
    expect(clicked.text).toMatch(/^Clicked element \[1\]\.\n\nURL: .*\/form\nTitle: Form/);
    expect(clicked.text).toMatch(/\[\d+\] input: Search words/);

    const typed = await call(tools, "browser_type", {
      ref: refOf(clicked.text, /Search words/),
      text: "deer",
      submit: true,
    });
    expect(typed.text).toMatch(
      /^Typed into element \[\d+\] and submitted\.\n\nURL: .*\/result\?q=deer\nTitle: Result/,
    );
    expect((await call(tools, "browser_get_text")).text).toBe("You searched: deer");

    const back = await call(tools, "browser_back");
    expect(back.text).toMatch(/^Went back\.\n\nURL: .*\/form\nTitle: Form/);

    const shot = await call(tools, "browser_screenshot", { filename: "form" });
    expect(shot.artifacts).toEqual(["/mnt/user-data/outputs/form.png"]);
    const png = await readFile(join(new FawnPaths(home).threadPaths(SCOPE).outputsDir, "form.png"));
    expect(png.subarray(1, 4).toString()).toBe("PNG");

    expect((await call(tools, "browser_close")).text).toBe("Browser session closed.");
    expect((await call(tools, "browser_snapshot")).text).toMatch(
      /^Error: no page is open .*browser_navigate first\.$/,
    );
  });

  it("cuts long text at max_chars and says how much is left", async () => {
    const tools = buildTools(home, { allow_private_addresses: true });
    await call(tools, "browser_navigate", { url: `${site}/` }, "thread-long");
    const { text } = await call(tools, "browser_get_text", {}, "thread-long");
    expect(text).toMatch(/^Welcome home\n/);
    expect(text).toMatch(/\n\n\[cut: \d+ more characters\]$/);
    expect(text.length).toBeLessThan(600);
  });

  it("refuses private addresses unless the entry allows them: the URL, a redirect, a link", async () => {
    const strict = buildTools(await newHome(), {});
    const refused = await call(strict, "browser_navigate", { url: `${site}/` });
    expect(refused.text).toMatch(
      /^Error: Refusing to browse http:\/\/127\.0\.0\.1:\d+: it is 127\.0\.0\.1, a private/,
    );

    // 127.0.0.1 plays a public host here; 127.0.0.2 stays private.
    const seams = { isBlockedAddress: (address: string) => address !== "127.0.0.1" };
    const guarded = buildTools(await newHome(), {}, seams);
    const redirected = await call(guarded, "browser_navigate", { url: `${site}/redirect` });
    expect(redirected.text).toMatch(
      /^Navigated to .*\/redirect\.\nBlocked: Refusing to browse http:\/\/127\.0\.0\.2:\d+: it is 127\.0\.0\.2/,
    );
    expect(redirected.text).not.toContain("internal data");

    const form = await call(guarded, "browser_navigate", { url: `${site}/form` });
    const link = await call(guarded, "browser_click", { ref: refOf(form.text, /Internal/) });
    expect(link.text).toMatch(
      /^Clicked element \[\d+\]\.\nBlocked: Refusing to browse http:\/\/127\.0\.0\.2/,
    );
    expect(link.text).not.toContain("internal data");
  });

  it("keeps one session per thread across calls, separate between threads; closes idle ones", async () => {
    const dir = await newHome();
    const tools = buildTools(dir, { allow_private_addresses: true, max_sessions: 2 });
    await call(tools, "browser_navigate", { url: `${site}/form` }, "thread-1");
    await call(tools, "browser_navigate", { url: `${site}/` }, "thread-2");
    // A later call (a later turn) of thread-1 still sees its own page.
    expect((await call(tools, "browser_snapshot", {}, "thread-1")).text).toMatch(/Title: Form/);
    expect((await call(tools, "browser_snapshot", {}, "thread-2")).text).toMatch(/Title: Home/);
    // A third thread takes the least recently used slot (max_sessions: 2).
    await call(tools, "browser_navigate", { url: `${site}/result?q=x` }, "thread-3");
    expect((await call(tools, "browser_snapshot", {}, "thread-1")).text).toMatch(
      /^Error: no page is open/,
    );
    expect((await call(tools, "browser_snapshot", {}, "thread-2")).text).toMatch(/Title: Home/);
    // Fawn's close() ends them all.
    await closeBrowserSessions(dir);
    expect((await call(tools, "browser_snapshot", {}, "thread-2")).text).toMatch(
      /^Error: no page is open/,
    );
  });

  it("answers a bad ref and a dead page with an Error line, not a throw", async () => {
    const tools = buildTools(home, { allow_private_addresses: true });
    await call(tools, "browser_navigate", { url: `${site}/form` }, "thread-errors");
    expect((await call(tools, "browser_click", { ref: 99 }, "thread-errors")).text).toBe(
      "Error: Element [99] is not on the page; call browser_snapshot to get the current refs.",
    );
    const dead = await call(
      tools,
      "browser_navigate",
      { url: "http://127.0.0.1:9/" },
      "thread-errors",
    );
    expect(dead.text).toMatch(
      /^Error: browser_navigate failed: Error: page\.goto: net::ERR_[A-Z_]+ at http:\/\/127\.0\.0\.1:9\/$/,
    );
    expect(dead.text).not.toContain("\n");
  });

  it("closes a session idle past the timeout, not before, and Chromium with the last one", async () => {
    let clock = 1_000_000;
    const settings = parseBrowserSettings(
      { executable_path: CHROMIUM_PATH, allow_private_addresses: true, idle_timeout_seconds: 60 },
      "test",
    );
    const pool = new BrowserSessionPool(settings, { logger: silent, now: () => clock });
    try {
      await pool.use("user/thread", true, (session) => session.navigate(`${site}/`));
      clock += 30_000;
      expect(await pool.closeIdle()).toBe(0);
      expect(await pool.use("user/thread", false, async (session) => session.currentUrl)).toBe(
        `${site}/`,
      );
      clock += 59_000;
      expect(await pool.closeIdle()).toBe(0);
      clock += 2_000;
      expect(await pool.closeIdle()).toBe(1);
      expect(pool.size).toBe(0);
      expect(await pool.use("user/thread", false, async () => "reused")).toBeUndefined();
    } finally {
      await pool.close();
    }
  });
});
