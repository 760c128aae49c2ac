import type { Browser } from "playwright-core";
import type { Logger } from "../../../core/logger.js";
import type { FetchTargetSeams } from "../web/provider-context.js";
import { WebToolError } from "../web/web-tool-error.js";
import { BrowserSession } from "./browser-session.js";
import type { BrowserSettings } from "./browser-settings.js";

interface PoolEntry {
  session: Promise<BrowserSession>;
  lastUsed: number;
  /** Actions in flight; a busy session is never evicted or closed as idle. */
  busy: number;
}

export interface BrowserPoolOptions {
  logger: Logger;
  /** Test seams of the private-address check. */
  seams?: FetchTargetSeams;
  /** Clock for idle expiry (tests advance it instead of waiting). */
  now?: () => number;
}

/**
 * The browser sessions of one Fawn: one Chromium, launched on first use, with a context per
 * thread. Sessions are reused across turns, closed when idle past the timeout, and bounded in
 * number (the least recently used idle one makes room); Chromium exits with the last session.
 */
export class BrowserSessionPool {
  private browser: Promise<Browser> | undefined;
  private readonly sessions = new Map<string, PoolEntry>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(
    readonly settings: BrowserSettings,
    private readonly options: BrowserPoolOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  get seams(): FetchTargetSeams | undefined {
    return this.options.seams;
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Runs `action` on the thread's session, opening one when `open` is set; undefined when the
   * thread has no session and none may be opened.
   */
  async use<T>(
    key: string,
    open: boolean,
    action: (session: BrowserSession) => Promise<T>,
  ): Promise<T | undefined> {
    await this.closeIdle();
    const entry = this.sessions.get(key) ?? (open ? await this.openEntry(key) : undefined);
    if (!entry) return undefined;
    entry.busy += 1;
    entry.lastUsed = this.now();
    try {
      const session = await entry.session;
      return await session.run(() => action(session));
    } finally {
      entry.busy -= 1;
      entry.lastUsed = this.now();
    }
  }

  /** Closes the thread's session; false when it had none. */
  async closeSession(key: string): Promise<boolean> {
    const entry = this.sessions.get(key);
    if (!entry) return false;
    await this.drop(key, entry);
    return true;
  }

  /** Closes the sessions unused for longer than the idle timeout; how many were closed. */
  async closeIdle(): Promise<number> {
    const cutoff = this.now() - this.settings.idleTimeoutMs;
    const idle = [...this.sessions].filter(([, e]) => e.busy === 0 && e.lastUsed <= cutoff);
    await Promise.all(idle.map(([key, entry]) => this.drop(key, entry)));
    return idle.length;
  }

  /** Closes every session and Chromium (Fawn is closing). */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map(([key, entry]) => this.drop(key, entry)));
    await this.closeBrowser();
  }

  private async openEntry(key: string): Promise<PoolEntry> {
    if (this.sessions.size >= this.settings.maxSessions) {
      const idle = [...this.sessions]
        .filter(([, entry]) => entry.busy === 0)
        .sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0];
      if (!idle) {
        throw new WebToolError(
          `All ${this.settings.maxSessions} browser sessions are in use by other conversations; try again shortly (or raise max_sessions on the browser_navigate entry).`,
        );
      }
      await this.drop(idle[0], idle[1]);
      // A parallel call of the same thread may have opened its session meanwhile.
      const opened = this.sessions.get(key);
      if (opened) return opened;
    }
    const session = this.launch().then((browser) =>
      BrowserSession.open(browser, {
        timeoutMs: this.settings.timeoutMs,
        viewport: this.settings.viewport,
        target: { allowPrivateNetwork: this.settings.allowPrivateNetwork, ...this.options.seams },
        logger: this.options.logger,
      }),
    );
    const entry: PoolEntry = { session, lastUsed: this.now(), busy: 0 };
    this.sessions.set(key, entry);
    this.startSweeper();
    try {
      await session;
    } catch (error) {
      this.sessions.delete(key);
      throw error;
    }
    return entry;
  }

  private launch(): Promise<Browser> {
    if (!this.browser) {
      const launching = import("playwright-core").then(({ chromium }) =>
        chromium.launch({
          executablePath: this.settings.executablePath,
          headless: this.settings.headless,
          // No traffic of Chromium's own (autofill, updates): only the pages' requests go out.
          args: [
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            // WebRTC could otherwise reach private addresses over UDP, outside the guard proxy.
            "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
          ],
        }),
      );
      this.browser = launching;
      launching.then(
        (browser) =>
          browser.on("disconnected", () => {
            // Chromium died: its sessions are gone; the next call launches a new one.
            if (this.browser !== launching) return;
            this.browser = undefined;
            const dead = [...this.sessions.values()];
            this.sessions.clear();
            for (const entry of dead) {
              entry.session.then((session) => session.close()).catch(() => undefined);
            }
          }),
        () => {
          if (this.browser === launching) this.browser = undefined;
        },
      );
    }
    return this.browser;
  }

  private async drop(key: string, entry: PoolEntry): Promise<void> {
    if (this.sessions.get(key) === entry) this.sessions.delete(key);
    await entry.session.then((session) => session.close()).catch(() => undefined);
    if (this.sessions.size === 0) await this.closeBrowser();
  }

  private async closeBrowser(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await browser.then((b) => b.close()).catch(() => undefined);
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    const every = Math.min(this.settings.idleTimeoutMs, 60_000);
    this.sweeper = setInterval(() => {
      this.closeIdle().catch((error: unknown) =>
        this.options.logger.warn(
          { tool: "browser" },
          `browser: idle close failed: ${String(error)}`,
        ),
      );
    }, every);
    // Idle sessions must not keep a CLI or test process alive.
    this.sweeper.unref();
  }
}

const pools = new Map<string, Map<string, BrowserSessionPool>>();

/** The pool of a Fawn home for these settings (one per home and settings, shared by factories). */
export function browserPoolFor(
  home: string,
  settings: BrowserSettings,
  options: BrowserPoolOptions,
): BrowserSessionPool {
  const byHome = pools.get(home) ?? new Map<string, BrowserSessionPool>();
  pools.set(home, byHome);
  const key = JSON.stringify(settings);
  const existing = byHome.get(key);
  if (existing) return existing;
  const pool = new BrowserSessionPool(settings, options);
  byHome.set(key, pool);
  return pool;
}

/** Closes the browser sessions of a Fawn home (its close(), after the runs have stopped). */
export async function closeBrowserSessions(home: string): Promise<void> {
  const byHome = pools.get(home);
  pools.delete(home);
  if (byHome) await Promise.all([...byHome.values()].map((pool) => pool.close()));
}
