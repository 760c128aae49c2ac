/** One counter a login attempt is charged to, and how many failures its window may hold. */
export interface AttemptCounter {
  key: string;
  limit: number;
}

export type LoginGate = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Failed-login counters, shared by every process over the same backing store. Each counter is a
 * fixed window: it opens at the first failure counted on it and lasts `windowMs`; a full window
 * refuses until it ends. Times are the caller's clock (`nowMs`), so every adapter expires alike.
 */
export interface LoginAttemptStore {
  /**
   * Atomically: when any counter's live window already holds `limit` failures, refuse and count
   * nothing (`retryAfterSeconds` until the last full window ends); otherwise count one failure on
   * every counter. Counting before the password is checked keeps concurrent guesses from all
   * slipping past the limit.
   */
  take(counters: readonly AttemptCounter[], windowMs: number, nowMs: number): Promise<LoginGate>;
  /**
   * The attempt proved its password: un-count its failure from the `refund` counters (never below
   * zero, only in a live window) and forget the `clear` counters entirely.
   */
  settle(refund: readonly string[], clear: readonly string[], nowMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Whole seconds until `resetsAt`, at least 1 (what `Retry-After` says). */
export function secondsUntil(resetsAt: number, nowMs: number): number {
  return Math.max(1, Math.ceil((resetsAt - nowMs) / 1000));
}
