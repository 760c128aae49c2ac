/**
 * Whether a plugin written for extension API `declared` runs on a host implementing `host`: the
 * majors match, and the host's minor is at least the declared one (a minor adds, never breaks).
 * Unparseable versions are incompatible.
 */
export function isCompatibleApiVersion(declared: string, host: string): boolean {
  const want = parseApiVersion(declared);
  const have = parseApiVersion(host);
  if (!want || !have) return false;
  return want.major === have.major && have.minor >= want.minor;
}

/** `major.minor`, as `isCompatibleApiVersion` reads it; a plain `1` is `1.0`. */
function parseApiVersion(version: string): { major: number; minor: number } | null {
  const match = /^(\d{1,6})(?:\.(\d{1,6}))?$/.exec(version.trim());
  if (!match) return null;
  return { major: Number(match[1]), minor: Number(match[2] ?? "0") };
}

/** What a refusal suggests: the range of hosts the declared version runs on. */
export function compatibleRange(declared: string): string {
  const want = parseApiVersion(declared);
  if (!want) return "a `major.minor` version such as 1.0";
  return `>=${want.major}.${want.minor}, <${want.major + 1}.0`;
}
