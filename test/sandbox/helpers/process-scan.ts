/** Finding processes by a marker in their command line, to prove a sandbox left none behind. */
import { readdir, readFile } from "node:fs/promises";
import { sleep } from "../../../src/core/async/deadline.js";

export async function pidsWithMarker(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "");
    if (cmdline.replaceAll("\0", " ").includes(marker)) pids.push(Number(name));
  }
  return pids;
}

/**
 * Waits (bounded) until no process carries `marker`; returns the survivors still there at the
 * end. Killed processes need a moment to be reaped — a liveness bound, not a timing assertion.
 */
export async function survivorsAfter(marker: string, boundMs = 5_000): Promise<number[]> {
  const until = Date.now() + boundMs;
  let pids = await pidsWithMarker(marker);
  while (pids.length > 0 && Date.now() < until) {
    await sleep(50);
    pids = await pidsWithMarker(marker);
  }
  return pids;
}

/** A `sleep` duration unique to one test, so its processes can be told apart from any other. */
export function uniqueSleepSeconds(): string {
  return `${300 + Math.floor(Math.random() * 600)}.${Math.floor(Math.random() * 1e6)}`;
}
