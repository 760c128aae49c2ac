import {
  type AttemptCounter,
  type LoginAttemptStore,
  type LoginGate,
  secondsUntil,
} from "../../ports/login-attempt-store.js";

interface FailureWindow {
  failures: number;
  resetsAt: number;
}

/**
 * Failed-login counters in process memory: right for one process (memory stores). At most
 * `maxKeys` counters are kept; expired windows are forgotten first, then the oldest.
 */
export class MemoryLoginAttemptStore implements LoginAttemptStore {
  private readonly windows = new Map<string, FailureWindow>();
  private readonly maxKeys: number;

  constructor(options: { maxKeys?: number } = {}) {
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  // Synchronous inside: check and count happen in one step, so no concurrent take interleaves.
  async take(
    counters: readonly AttemptCounter[],
    windowMs: number,
    nowMs: number,
  ): Promise<LoginGate> {
    let latestFullReset = 0;
    for (const { key, limit } of counters) {
      const window = this.live(key, nowMs);
      if (window !== undefined && window.failures >= limit) {
        latestFullReset = Math.max(latestFullReset, window.resetsAt);
      }
    }
    if (latestFullReset > 0) {
      return { allowed: false, retryAfterSeconds: secondsUntil(latestFullReset, nowMs) };
    }
    for (const { key } of counters) {
      const window = this.live(key, nowMs);
      if (window !== undefined) {
        window.failures++;
        continue;
      }
      this.windows.delete(key);
      while (this.windows.size >= this.maxKeys) this.forgetOldest(nowMs);
      this.windows.set(key, { failures: 1, resetsAt: nowMs + windowMs });
    }
    return { allowed: true };
  }

  async settle(refund: readonly string[], clear: readonly string[], nowMs: number): Promise<void> {
    for (const key of refund) {
      const window = this.live(key, nowMs);
      if (window !== undefined && window.failures > 0) window.failures--;
    }
    for (const key of clear) this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private live(key: string, nowMs: number): FailureWindow | undefined {
    const window = this.windows.get(key);
    return window !== undefined && window.resetsAt > nowMs ? window : undefined;
  }

  /** Expired windows go first; otherwise the oldest entry (Map keeps insertion order). */
  private forgetOldest(nowMs: number): void {
    for (const [key, window] of this.windows) {
      if (window.resetsAt <= nowMs) {
        this.windows.delete(key);
        return;
      }
    }
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}
