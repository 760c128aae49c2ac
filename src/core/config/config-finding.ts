/**
 * What the loader says about one key of the file beyond "honoured": `mapped` (a reference key
 * turned into Fawn's setting), `unsupported` (a reference key Fawn has no equivalent for; the
 * message says what to do instead) or `unknown` (neither Fawn's nor the reference's: a typo?).
 */
export type ConfigFindingKind = "mapped" | "unsupported" | "unknown";

export interface ConfigFinding {
  kind: ConfigFindingKind;
  /** Dotted key path as written in the file (`database.sqlite_dir`, `tools[2].proxy`). */
  path: string;
  /** A sentence after the path: `mapped onto runtime.lease_seconds`, `not supported by Fawn: …`. */
  message: string;
  /** The config file, or null for a config given in code. */
  file: string | null;
}

/** The warning line of a finding: the key path, what happened, and the file. */
export function formatFinding(finding: ConfigFinding): string {
  const where = finding.file ? ` (${finding.file})` : "";
  return `${finding.path}: ${finding.message}${where}`;
}
