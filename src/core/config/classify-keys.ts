import type { ConfigFinding } from "./config-finding.js";
import { formatConfigPath } from "./config-path.js";
import { isPlainObject } from "./env-expansion.js";
import {
  MAPPED_REFERENCE_SECTIONS,
  UNSUPPORTED_REFERENCE_KEYS,
  unsupportedReferenceKey,
} from "./reference-keys.js";

/**
 * Findings for keys Fawn's schema does not know. A key of the reference is `unsupported` with
 * what to do instead; anything else is `unknown`. A mapping the table does not name as a whole
 * (a reference section whose other keys were mapped) is looked into key by key, so each leftover
 * key gets its own verdict instead of the section being lumped together.
 */
export function classifyUnknownKeys(
  paths: readonly (readonly PropertyKey[])[],
  input: unknown,
  file: string | null,
): ConfigFinding[] {
  const findings: ConfigFinding[] = [];
  for (const path of paths) classify(path, valueAt(input, path), file, findings);
  return findings;
}

function classify(
  path: readonly PropertyKey[],
  value: unknown,
  file: string | null,
  findings: ConfigFinding[],
): void {
  const dotted = formatConfigPath(path);
  const instead = unsupportedReferenceKey(dotted);
  if (instead !== null) {
    findings.push({ kind: "unsupported", path: dotted, message: notSupported(instead), file });
    return;
  }
  if (isPlainObject(value) && Object.keys(value).length > 0 && hasListedChild(dotted)) {
    for (const [key, child] of Object.entries(value))
      classify([...path, key], child, file, findings);
    return;
  }
  findings.push({ kind: "unknown", path: dotted, message: "unknown key, ignored", file });
}

export function notSupported(instead: string): string {
  return `not supported by Fawn, ignored: ${instead}`;
}

/** Whether the table names some key below this one (so the mapping is worth looking into). */
function hasListedChild(dotted: string): boolean {
  return LISTED_PARENTS.has(dotted.replace(/\[\d+\]/g, "[]"));
}

/** Proper prefixes of the table's keys, and the reference-only sections Fawn maps. */
const LISTED_PARENTS: ReadonlySet<string> = (() => {
  const parents = new Set<string>(MAPPED_REFERENCE_SECTIONS);
  for (const key of Object.keys(UNSUPPORTED_REFERENCE_KEYS)) {
    const segments = key.split(".");
    for (let end = 1; end < segments.length; end++) parents.add(segments.slice(0, end).join("."));
  }
  return parents;
})();

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === "number") node = node[segment];
    else if (isPlainObject(node) && typeof segment === "string") node = node[segment];
    else return undefined;
  }
  return node;
}
