/**
 * An async mutual-exclusion lock with FIFO hand-over. Waiters queue without polling; a waiter whose
 * signal aborts leaves the queue and rejects with the signal's reason without ever holding the lock.
 */
export class Mutex {
  private locked = false;
  private readonly waiters: Array<() => void> = [];

  get isLocked(): boolean {
    return this.locked;
  }

  /** How many callers are queued behind the current holder. */
  get pending(): number {
    return this.waiters.length;
  }

  async runExclusive<T>(
    fn: () => T | Promise<T>,
    options: { signal?: AbortSignal } = {},
  ): Promise<T> {
    await this.acquire(options.signal);
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.locked) {
      this.locked = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.waiters.indexOf(grant);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal?.reason);
      };
      // Ownership passes directly to the waiter: `locked` stays true across the hand-over, so a
      // caller arriving in between cannot jump the queue.
      const grant = (): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      this.waiters.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.locked = false;
  }
}
