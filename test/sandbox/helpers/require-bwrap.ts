/**
 * bubblewrap for tests: in CI a missing or broken bwrap FAILS the suite (it must run there);
 * elsewhere the bwrap suites skip, loudly.
 */
import { probeBwrap } from "../../../src/sandbox/bwrap/bwrap-probe.js";

/** CI systems set CI=true (or 1); treat an explicit false/0 as a local run. */
export function inCi(): boolean {
  const value = process.env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "false" && value !== "0";
}

export function warnSkipped(what: string, reason: string, remedy: string): void {
  const line = "!".repeat(78);
  console.warn(`\n${line}\n!! ${what} SKIPPED: ${reason}\n!! ${remedy}\n${line}\n`);
}

/** True when bwrap works here; false (after a loud warning) outside CI; throws in CI. */
export async function requireBwrap(): Promise<boolean> {
  const probe = await probeBwrap();
  if (probe.available) return true;
  if (inCi()) throw new Error(`bubblewrap is required in CI: ${probe.detail}`);
  warnSkipped(
    "bubblewrap sandbox tests",
    probe.detail,
    "Install bubblewrap (apt-get install bubblewrap) to run them. In CI these tests fail instead.",
  );
  return false;
}
