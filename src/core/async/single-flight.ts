/**
 * Concurrent callers asking for the same key share one in-flight promise, so an expensive lookup
 * (a sandbox acquire, a config read) runs once however many requests race for it. The entry is
 * forgotten as soon as the work settles: a later call starts fresh, and a failure is not cached.
 */
export class SingleFlight<K, V> {
  private readonly inFlight = new Map<K, Promise<V>>();

  run(key: K, work: () => Promise<V>): Promise<V> {
    const existing = this.inFlight.get(key);
    if (existing) return existing;
    const started = Promise.resolve()
      .then(work)
      .finally(() => {
        if (this.inFlight.get(key) === started) this.inFlight.delete(key);
      });
    this.inFlight.set(key, started);
    return started;
  }

  has(key: K): boolean {
    return this.inFlight.has(key);
  }

  get size(): number {
    return this.inFlight.size;
  }
}
