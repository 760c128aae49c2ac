import { ConfigError, describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { browserUnavailableReason } from "./browser/browser-availability.js";
import { parseBrowserSettings } from "./browser/browser-settings.js";
import { BROWSER_LAUNCH_USE } from "./browser/browser-tools.js";
import {
  CONFIGURED_TOOL_USES,
  type ConfiguredToolEntry,
  type ConfiguredToolsOptions,
  createConfiguredTools,
  isBuiltInToolUse,
  SUPPORTED_USES_HINT,
  unavailableToolReason,
} from "./configured-tools.js";

/** What `fawn doctor` says of one `tools:` entry. */
export interface ConfiguredToolStatus {
  name: string;
  use: string;
  group: string | null;
  /**
   * `built`: the entry builds a tool; `built-in`: Fawn always has this tool (the entry adds
   * nothing); `unavailable`: it builds nothing (the hint says what to use instead); `invalid`:
   * a bad option, which stops start-up.
   */
  status: "built" | "built-in" | "unavailable" | "invalid";
  /** A line for the operator: the provider used, or what is wrong and how to fix it. */
  detail: string;
}

/** Each `tools:` entry with what it builds, without keeping any tool. */
export function describeConfiguredTools(
  entries: readonly ConfiguredToolEntry[],
  options: Pick<ConfiguredToolsOptions, "env" | "reservedNames"> = {},
): ConfiguredToolStatus[] {
  // Every browser tool runs in the Chromium the navigate entry configures.
  const launch = entries.find((entry) => entry.use === BROWSER_LAUNCH_USE);
  return entries.map((entry) => {
    const base = { name: entry.name, use: entry.use, group: entry.group ?? null };
    if (isBuiltInToolUse(entry.use)) {
      return { ...base, status: "built-in", detail: "always available in the sandbox" };
    }
    const reason = unavailableToolReason(entry.use);
    if (reason) return { ...base, status: "unavailable", detail: `not built: ${reason}` };
    const binding = CONFIGURED_TOOL_USES[entry.use];
    if (!binding) {
      return {
        ...base,
        status: "unavailable",
        detail: `not provided by Fawn. ${SUPPORTED_USES_HINT}`,
      };
    }
    if (binding.kind === "browser") {
      const unavailable = browserUnavailable(launch);
      if (unavailable)
        return { ...base, status: "unavailable", detail: `not built: ${unavailable}` };
    }
    try {
      const warnings: string[] = [];
      createConfiguredTools([entry], {
        ...options,
        logger: collectingLogger(warnings),
        ...(launch ? { browserLaunchEntry: launch } : {}),
      });
      const provider =
        binding.kind === "browser"
          ? `Chromium at ${parseBrowserSettings(launch ?? {}, "browser tools").executablePath}`
          : (binding.provider ?? (typeof entry.provider === "string" ? entry.provider : ""));
      // A missing key or an ignored option does not stop start-up, but the operator should know.
      const notes = warnings.map((line) => line.replace(/^config: tools\[0\] "[^"]*" /, ""));
      return {
        ...base,
        status: "built",
        detail: `${binding.kind}${provider ? ` via ${provider}` : ""}${notes.length > 0 ? `; ${notes.join("; ")}` : ""}`,
      };
    } catch (error) {
      const detail = error instanceof ConfigError ? error.message : describeError(error);
      return { ...base, status: "invalid", detail };
    }
  });
}

/** Why the browser tools cannot run with this launch entry; a bad entry is reported per entry. */
function browserUnavailable(launch: ConfiguredToolEntry | undefined): string | undefined {
  try {
    return browserUnavailableReason(
      parseBrowserSettings(launch ?? {}, "browser tools").executablePath,
    );
  } catch {
    return undefined;
  }
}

function collectingLogger(lines: string[]): Logger {
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (_context, message) => {
      lines.push(message);
    },
    error: (_context, message) => {
      lines.push(message);
    },
    child: () => logger,
  };
  return logger;
}
