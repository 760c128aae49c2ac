import { access } from "node:fs/promises";
import { type Browser, chromium } from "playwright-core";
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
