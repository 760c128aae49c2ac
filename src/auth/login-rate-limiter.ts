import { type Clock, systemClock } from "../core/clock.js";

export interface LoginRateLimitOptions {
  /** Failed logins allowed per key within one window. */
  maxFailures: number;
  /** Length of the window, counted from the first failure; also the lockout length. */
  windowMs: number;
  /** Most keys tracked at once; the oldest is forgotten first, so memory stays bounded. */
  maxKeys?: number;
  clock?: Clock;
}

interface FailureWindow {
  failures: number;
  resetsAt: number;
}

export type LoginGate = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Failed logins per client (IP), in memory. After `maxFailures` failures inside a window, further
 * attempts are refused until the window ends, without checking the password (which also stops
 * the refused attempts from costing a hash). A success clears the client's record.
 */
export class LoginRateLimiter {
  private readonly windows = new Map<string, FailureWindow>();
  private readonly maxKeys: number;
  private readonly clock: Clock;

  constructor(private readonly options: LoginRateLimitOptions) {
    this.maxKeys = options.maxKeys ?? 10_000;
    this.clock = options.clock ?? systemClock;
  }

  check(key: string): LoginGate {
    const now = this.clock.now().getTime();
    const window = this.windows.get(key);
    if (window === undefined || window.resetsAt <= now) return { allowed: true };
    if (window.failures < this.options.maxFailures) return { allowed: true };
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((window.resetsAt - now) / 1000)),
    };
  }

  recordFailure(key: string): void {
    const now = this.clock.now().getTime();
    const window = this.windows.get(key);
    if (window !== undefined && window.resetsAt > now) {
      window.failures++;
      return;
    }
    this.windows.delete(key);
    while (this.windows.size >= this.maxKeys) this.forgetOldest(now);
    this.windows.set(key, { failures: 1, resetsAt: now + this.options.windowMs });
  }

  recordSuccess(key: string): void {
    this.windows.delete(key);
  }

  /** Expired windows go first; otherwise the oldest entry (Map keeps insertion order). */
  private forgetOldest(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.resetsAt <= now) {
        this.windows.delete(key);
        return;
      }
    }
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}
