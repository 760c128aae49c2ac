import { isUrgent } from "../../core/async/urgency.js";

/**
 * A lock whose acquire and release are separate calls, the shape Kysely's driver interface needs
 * (`acquireConnection` / `releaseConnection`); core's `Mutex` only offers `runExclusive`.
 *
 * Two FIFO lanes: a caller inside `runUrgent` (a run's admission) is handed the connection before
 * every queued ordinary caller. Under load dozens of runs' transactions queue here; without the
 * lane, each of admission's few statements waited for the whole queue, and the client's first SSE
 * frame with them. Ordinary callers keep their order and only wait longer while admissions arrive.
 */
export class ConnectionLock {
  private held = false;
  private readonly urgent: Array<() => void> = [];
  private readonly ordinary: Array<() => void> = [];

  /** How many callers wait behind the holder. */
  get pending(): number {
    return this.urgent.length + this.ordinary.length;
  }

  /** Resolves with a release function once the lock is handed to this caller. */
  async lock(): Promise<() => void> {
    if (this.held) {
      const lane = isUrgent() ? this.urgent : this.ordinary;
      await new Promise<void>((resolve) => lane.push(resolve));
    }
    this.held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOver();
    };
  }

  /** The next waiter takes the lock as it is (held stays true); none: the lock is free. */
  private handOver(): void {
    const next = this.urgent.shift() ?? this.ordinary.shift();
    if (next === undefined) {
      this.held = false;
      return;
    }
    next();
  }
}
