import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Logger } from "../../../core/logger.js";
import type { FetchTargetPolicy } from "../web/url-guard.js";
import { WebToolError } from "../web/web-tool-error.js";
import { GuardProxy } from "./guard-proxy.js";
import {
  type PageSnapshot,
  parseSnapshot,
  REF_ATTRIBUTE,
  SNAPSHOT_SCRIPT,
} from "./page-snapshot.js";

/** Refusals kept per action (a page may request many blocked resources). */
const MAX_REFUSALS = 5;
/** A stale ref should fail fast so the model re-snapshots instead of stalling the run. */
const ACTION_TIMEOUT_MS = 8000;
/** Best-effort wait after a click or submit: client-side navigations fire no load event. */
const SETTLE_TIMEOUT_MS = 3000;

export interface SessionOptions {
  timeoutMs: number;
  viewport: { width: number; height: number };
  /** The web tools' private-address policy, applied to every request the pages make. */
  target: FetchTargetPolicy;
  logger: Logger;
}

/**
 * One thread's browser: its own context (cookies, storage) and current page in the pool's
 * Chromium. Actions run one at a time, so two tool calls of a thread cannot interleave.
 */
export class BrowserSession {
  private page: Page;
  /** Refusals of the private-address guard since the last action, for the model to read. */
  private refusals: string[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly context: BrowserContext,
    page: Page,
    private readonly proxy: GuardProxy | undefined,
  ) {
    this.page = page;
    // A link with target=_blank or window.open: follow the new tab, as a user would.
    context.on("page", (opened) => {
      this.page = opened;
      // When that tab closes itself, carry on in the one opened before it.
      opened.once("close", () => {
        const last = context.pages().at(-1);
        if (this.page === opened && last) this.page = last;
      });
    });
  }

  static async open(browser: Browser, options: SessionOptions): Promise<BrowserSession> {
    const refusals: string[] = [];
    // Unless private networks are allowed, the context reaches the network only through the guard.
    const proxy = options.target.allowPrivateNetwork
      ? undefined
      : await GuardProxy.start(options.target, (refusal) => {
          options.logger.warn({ tool: "browser" }, `browser: request refused: ${refusal}`);
          if (refusals.length < MAX_REFUSALS && !refusals.includes(refusal)) refusals.push(refusal);
        });
    try {
      const context = await browser.newContext({
        viewport: options.viewport,
        // `<-loopback>`: Chromium would otherwise reach localhost directly, past the guard.
        ...(proxy ? { proxy: { server: proxy.url, bypass: "<-loopback>" } } : {}),
      });
      context.setDefaultTimeout(options.timeoutMs);
      context.setDefaultNavigationTimeout(options.timeoutMs);
      const session = new BrowserSession(context, await context.newPage(), proxy);
      session.refusals = refusals;
      return session;
    } catch (error) {
      await proxy?.close();
      throw error;
    }
  }

  /** Runs `action` after the session's earlier actions have finished. */
  run<T>(action: () => Promise<T>): Promise<T> {
    const next = this.queue.then(action, action);
    this.queue = next.catch(() => undefined);
    return next;
  }

  get currentUrl(): string {
    return this.page.url();
  }

  async navigate(url: string): Promise<PageSnapshot> {
    this.refusals.length = 0;
    try {
      await this.page.goto(url, { waitUntil: "domcontentloaded" });
    } catch (error) {
      const refusal = this.refusals[0];
      if (refusal) throw new WebToolError(refusal);
      throw error;
    }
    return this.snapshot();
  }

  async snapshot(): Promise<PageSnapshot> {
    try {
      return parseSnapshot(await this.page.evaluate(SNAPSHOT_SCRIPT));
    } catch (error) {
      // A navigation replaced the document mid-read: read the new one once it has loaded.
      if (!(error instanceof Error) || !/context was destroyed|navigat/i.test(error.message))
        throw error;
      await this.settle();
      return parseSnapshot(await this.page.evaluate(SNAPSHOT_SCRIPT));
    }
  }

  async click(ref: number): Promise<PageSnapshot> {
    this.refusals.length = 0;
    const target = await this.element(ref);
    await withActionTimeout(ref, "clicked", () => target.click({ timeout: ACTION_TIMEOUT_MS }));
    await this.settle();
    return this.snapshot();
  }

  async type(ref: number, text: string, submit: boolean): Promise<PageSnapshot> {
    this.refusals.length = 0;
    const target = await this.element(ref);
    await withActionTimeout(ref, "typed into", async () => {
      await target.fill(text, { timeout: ACTION_TIMEOUT_MS });
      if (submit) await target.press("Enter", { timeout: ACTION_TIMEOUT_MS });
    });
    if (submit) await this.settle();
    return this.snapshot();
  }

  async back(): Promise<PageSnapshot | undefined> {
    this.refusals.length = 0;
    const before = this.page.url();
    const response = await this.page.goBack({ waitUntil: "domcontentloaded" });
    if (response === null && this.page.url() === before) return undefined;
    return this.snapshot();
  }

  /** The page's visible text and its full length (the caller cuts it). */
  async text(): Promise<string> {
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees.
    return this.page.innerText("body");
  }

  async screenshot(fullPage: boolean): Promise<Buffer> {
    return this.page.screenshot({ fullPage, type: "png" });
  }

  /** Refusals recorded during the last action (navigations the guard stopped). */
  takeRefusals(): string[] {
    return this.refusals.splice(0);
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.proxy?.close();
  }

  private async element(ref: number) {
    const matches = this.page.locator(`[${REF_ATTRIBUTE}="${ref}"]`);
    if ((await matches.count()) === 0) {
      throw new WebToolError(
        `Element [${ref}] is not on the page; call browser_snapshot to get the current refs.`,
      );
    }
    return matches.first();
  }

  private async settle(): Promise<void> {
    await this.page
      .waitForLoadState("domcontentloaded", { timeout: SETTLE_TIMEOUT_MS })
      .catch(() => undefined);
  }
}

async function withActionTimeout(ref: number, what: string, act: () => Promise<void>) {
  try {
    await act();
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") {
      throw new WebToolError(
        `Element [${ref}] could not be ${what} within ${ACTION_TIMEOUT_MS / 1000} s; the page may have changed — call browser_snapshot and retry.`,
      );
    }
    throw error;
  }
}
