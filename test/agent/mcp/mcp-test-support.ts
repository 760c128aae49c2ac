import { fileURLToPath } from "node:url";

export const STDIO_SERVER = fileURLToPath(
  new URL("../../fixtures/mcp/stdio-server.mjs", import.meta.url),
);
export const SILENT_SERVER = fileURLToPath(
  new URL("../../fixtures/mcp/silent-server.mjs", import.meta.url),
);

/** Whether a process with this pid exists (signal 0 probes without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (bounded) for a process to exit: a killed child takes a moment to be reaped. */
export async function waitUntilGone(pid: number, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
