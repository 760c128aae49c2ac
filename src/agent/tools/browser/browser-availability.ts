import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * Why browser tools cannot run here (with the fix), or undefined when playwright-core and the
 * Chromium executable are both present. Checked once per entry when tools are built or described.
 */
export function browserUnavailableReason(executablePath: string): string | undefined {
  try {
    require.resolve("playwright-core");
  } catch {
    return "the playwright-core package is not installed; install it (npm install playwright-core) to use the browser tools";
  }
  try {
    // sync-ok: run once when the tools are built at start-up or described by `fawn doctor`.
    accessSync(executablePath, constants.X_OK);
  } catch {
    return `no Chromium executable at ${executablePath}; install Chromium (apt-get install chromium) or set executable_path on the browser_navigate entry`;
  }
  return undefined;
}
