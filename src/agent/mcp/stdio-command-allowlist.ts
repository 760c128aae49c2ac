import type { Env } from "../../core/config/env-expansion.js";

export const STDIO_ALLOWLIST_ENV = "FAWN_MCP_STDIO_COMMAND_ALLOWLIST";
/**
 * The reference's default: package runners only. `node`, `python` & co. run any local script, so
 * they are opt-in through the environment variable rather than allowed out of the box.
 */
export const DEFAULT_STDIO_COMMANDS: readonly string[] = ["npx", "uvx"];

/**
 * The executables a stdio MCP server may be started with: `FAWN_MCP_STDIO_COMMAND_ALLOWLIST`
 * (comma-separated bare names; set but empty allows none), else `npx`, `uvx`. Entries holding a
 * path separator are dropped: the list names programs found on PATH, never files.
 */
export function stdioCommandAllowlist(env: Env): ReadonlySet<string> {
  const raw = env[STDIO_ALLOWLIST_ENV];
  if (raw === undefined) return new Set(DEFAULT_STDIO_COMMANDS);
  return new Set(
    raw
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "" && isBareCommand(item)),
  );
}

/** Null when `command` may start; otherwise why not, with the fix. */
export function refuseStdioCommand(
  server: string,
  command: string,
  allowed: ReadonlySet<string>,
): string | null {
  if (!isBareCommand(command)) {
    return `MCP stdio command for "${server}" must be a bare executable name found on PATH (like npx), not "${command}".`;
  }
  if (allowed.has(command)) return null;
  const list = [...allowed].sort().join(", ") || "(none)";
  return `MCP stdio command "${command}" for "${server}" is not allowed. Allowed commands: ${list}; add it to ${STDIO_ALLOWLIST_ENV} (comma-separated) to allow it.`;
}

function isBareCommand(command: string): boolean {
  return !/[/\\]/.test(command) && command !== "." && command !== ".." && !/\s/.test(command);
}
