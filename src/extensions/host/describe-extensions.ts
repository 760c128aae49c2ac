import type { LoadedExtensions } from "./loaded-extensions.js";

/** Runtime diagnostics shown after the entries (the newest). */
const SHOWN_DIAGNOSTICS = 20;

/**
 * One line per `plugins:` entry (loaded with what it contributes, disabled, or failed with its
 * diagnostic), then the newest runtime failures: what `fawn doctor` prints.
 */
export function describeExtensions(extensions: LoadedExtensions): string[] {
  const lines = extensions.entries.map((entry) => {
    if (entry.status === "disabled") return `plugin ${entry.label}: disabled`;
    if (entry.status === "failed") {
      const { stage, message } = entry.diagnostic;
      return `plugin ${entry.label}: FAILED (${stage}) ${message}`;
    }
    const { plugin } = entry;
    const parts = plugin.contributions;
    return `plugin ${entry.label}: loaded ${plugin.namespace} ${plugin.version} (${count(parts.tools.length, "tool")}, ${count(parts.actions.length, "action")}, ${count(parts.services.length, "service")})`;
  });
  const loadFailures = new Set(
    extensions.entries.flatMap((entry) => (entry.status === "failed" ? [entry.diagnostic] : [])),
  );
  const runtime = extensions.diagnostics
    .list()
    .filter((diagnostic) => !loadFailures.has(diagnostic));
  for (const diagnostic of runtime.slice(-SHOWN_DIAGNOSTICS)) {
    lines.push(
      `  ${diagnostic.level} ${diagnostic.namespace ?? diagnostic.plugin} (${diagnostic.stage}): ${diagnostic.message}`,
    );
  }
  return lines;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
