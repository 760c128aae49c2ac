import { createHash } from "node:crypto";
import { type Clock, systemClock } from "../core/clock.js";
import { TooManyRequestsError } from "../core/errors.js";
import type { AttemptCounter, LoginAttemptStore } from "../ports/login-attempt-store.js";
import { normalizeEmail } from "./credentials-policy.js";

export interface LoginRateLimitOptions {
  /** Failed logins allowed per (client address, account) within one window. */
  maxFailures: number;
  /** Failed logins allowed per account, from all addresses together. */
  maxFailuresPerAccount: number;
  /** Failed logins allowed per client address, at all accounts together. */
  maxFailuresPerAddress: number;
  /** Length of a window, counted from its first failure; also the longest lockout. */
  windowMs: number;
  /** Where the counters live: shared by every process serving the same users. */
  store: LoginAttemptStore;
  clock?: Clock;
}

/** A login attempt that was let through and counted as a failure until it proves otherwise. */
export interface LoginAttempt {
  /** The password was right: un-count this attempt and forget this address's failures on it. */
  succeeded(): Promise<void>;
}

/** Counter keys are hashes: fixed length, and no email or address stored in clear. */
function counterKey(scope: string, ...parts: string[]): string {
  return createHash("sha256")
    .update([scope, ...parts].join("\0"))
    .digest("hex");
}

/**
 * Failed logins, counted per (address, account), per account and per address. An attempt is
 * refused — before its password is checked, so refusals cost no hash — while any of the three
 * windows is full. A success un-counts itself and clears only its own (address, account) counter:
 * whoever proved the password may retry from there, but nobody's success clears the failures
 * others made on another account, nor the account's or address's totals.
 */
export class LoginRateLimiter {
  readonly store: LoginAttemptStore;
  private readonly clock: Clock;

  constructor(private readonly options: LoginRateLimitOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
  }

  /** Counts the attempt, or throws a 429 saying when to try again. */
  async begin(address: string, email: string): Promise<LoginAttempt> {
    const account = normalizeEmail(email);
    const pair = counterKey("address+account", address, account);
    const counters: AttemptCounter[] = [
      { key: pair, limit: this.options.maxFailures },
      { key: counterKey("account", account), limit: this.options.maxFailuresPerAccount },
      { key: counterKey("address", address), limit: this.options.maxFailuresPerAddress },
    ];
    const gate = await this.store.take(counters, this.options.windowMs, this.clock.now().getTime());
    if (!gate.allowed) {
      throw new TooManyRequestsError(
        `Too many failed logins; try again in ${gate.retryAfterSeconds} s.`,
        gate.retryAfterSeconds,
      );
    }
    return {
      succeeded: () =>
        this.store.settle(
          counters.slice(1).map((counter) => counter.key),
          [pair],
          this.clock.now().getTime(),
        ),
    };
  }
}
