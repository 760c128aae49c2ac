/** Random fractions in (0, 1) with nine decimals: short in JSON, exact through a round trip. */
const FRACTION_STEPS = 1_000_000_000;

/**
 * The next version of a channel: one above the integer part of `current`, plus a random
 * fraction. Values are stored once per (thread, ns, channel, version), so two branches of a
 * thread (a run forked from an older checkpoint, a rollback) must never issue the same version
 * for different values; plain integers would (both branches would write "version 6"). Versions
 * stay numbers, so they still compare numerically (LangGraph allows float versions) and the saver
 * keeps `BaseCheckpointSaver`'s default number type that the runtime uses.
 */
export function nextChannelVersion(
  current: number | string | undefined,
  random: () => number = Math.random,
): number {
  const parsed =
    current === undefined ? 0 : typeof current === "number" ? current : Number.parseFloat(current);
  const integer = Number.isFinite(parsed) ? Math.floor(parsed) : 0;
  const steps = 1 + Math.floor(random() * (FRACTION_STEPS - 1));
  return integer + 1 + steps / FRACTION_STEPS;
}

/** The key a version is stored under (numbers print in their shortest round-trip form). */
export function versionKey(version: number | string): string {
  return typeof version === "number" ? String(version) : version;
}
