import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { onTestFailed } from "vitest";
import { inCi, warnSkipped } from "../../sandbox/helpers/require-bwrap.js";

/** Debian's Chromium (`apt-get install chromium`); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** True when Chromium is installed; false (after a loud warning) outside CI; throws in CI. */
export async function requireChromium(): Promise<boolean> {
  const present = await access(CHROMIUM_PATH).then(
    () => true,
    () => false,
  );
  if (present) return true;
  if (inCi()) throw new Error(`Chromium is required in CI: ${CHROMIUM_PATH} is missing`);
  warnSkipped(
    "web workspace browser tests",
    `${CHROMIUM_PATH} is missing`,
    "Install it (apt-get install chromium) to run them. In CI these tests fail instead.",
  );
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Root in a container: Chromium's own sandbox needs user namespaces it may not get.
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
}

/**
 * Logs the page's console, errors and API answers; when the current test fails, prints the last
 * of them with a full-page screenshot saved as `fawn-<name>-failure-<time>.png`.
 */
export function reportPageOnFailure(page: Page, name: string): void {
  const logs: string[] = [];
  page.on("console", (message) => logs.push(`${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => logs.push(`page error: ${error.message}`));
  page.on("response", (response) => {
    if (response.url().includes("/api/"))
      logs.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  onTestFailed(async () => {
    const shot = join(tmpdir(), `fawn-${name}-failure-${Date.now()}.png`);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    console.error(`screenshot: ${shot}\n${logs.slice(-80).join("\n")}`);
  });
}

/**
 * Where a suite's screenshots go: `FAWN_WEB_SHOTS` keeps them (to look at them); otherwise a
 * temp folder that `remove` deletes.
 */
export async function screenshotFolder(
  prefix: string,
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const kept = process.env.FAWN_WEB_SHOTS || undefined;
  const dir = kept ?? (await mkdtemp(join(tmpdir(), `fawn-${prefix}-shots-`)));
  return {
    dir,
    remove: () => (kept ? Promise.resolve() : rm(dir, { recursive: true, force: true })),
  };
}

/** Run in a page: records every text the first assistant bubble shows (`window.seenTexts`). */
export const RECORD_ASSISTANT_TEXTS = `
  window.seenTexts = [];
  new MutationObserver(() => {
    const text = document.querySelector(".message.assistant .markdown")?.textContent ?? "";
    if (text && window.seenTexts.at(-1) !== text) window.seenTexts.push(text);
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
`;
