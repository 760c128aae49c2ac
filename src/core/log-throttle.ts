/**
 * Keeps a line that repeats (every request answered 503 while the database is down, a health
 * probe polled twice a second) from flooding the log: the first occurrence of a key is logged,
 * then at most one per interval, carrying how many were dropped in between.
 */
export class LogThrottle {
  private readonly seen = new Map<string, { loggedAt: number; dropped: number }>();

  constructor(
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Null: drop this line. A number: log it, with that many lines dropped since the last one. */
  admit(key: string): number | null {
    const now = this.now();
    const entry = this.seen.get(key);
    if (entry !== undefined && now - entry.loggedAt < this.intervalMs) {
      entry.dropped += 1;
      return null;
    }
    // Keys are a handful of fixed strings; the bound only guards against a careless caller.
    if (entry === undefined && this.seen.size >= 256) this.seen.clear();
    this.seen.set(key, { loggedAt: now, dropped: 0 });
    return entry?.dropped ?? 0;
  }
}
