import { isSqliteBusy } from "./sql-errors.js";
import { SqliteWorkerError } from "./sqlite-worker-client.js";

const BUSY_ATTEMPTS = 5;
const BUSY_FIRST_DELAY_MS = 50;
const BUSY_MAX_DELAY_MS = 1_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const isBusyBeforeAnyChange = (error: unknown): boolean =>
  isSqliteBusy(error) && !(error instanceof SqliteWorkerError && error.inTransaction);

/**
 * busy_timeout already waits inside the worker; a busy/locked error that still escapes is
 * retried here. That is safe: a failed BEGIN IMMEDIATE, autocommit statement or batch did nothing
 * (the worker rolls a failed batch back), and SQLite allows a busy COMMIT to be retried.
 */
export async function withBusyRetry<T>(
  attempt: () => Promise<T>,
  retryable: (error: unknown) => boolean,
): Promise<T> {
  let delay = BUSY_FIRST_DELAY_MS;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= BUSY_ATTEMPTS || !retryable(error)) throw error;
      await sleep(delay);
      delay = Math.min(delay * 2, BUSY_MAX_DELAY_MS);
    }
  }
}
