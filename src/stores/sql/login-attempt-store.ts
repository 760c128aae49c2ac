import { sql } from "kysely";
import {
  type AttemptCounter,
  type LoginAttemptStore,
  type LoginGate,
  secondsUntil,
} from "../../ports/login-attempt-store.js";
import { toNumber } from "./codec.js";
import type { SqlExecutor } from "./database.js";
import { toStoreError } from "./sql-errors.js";
import { SqlStore } from "./sql-store.js";

/** How often expired counters are deleted (at most), per process. */
const PRUNE_INTERVAL_MS = 60_000;

/** Thrown inside the transaction to roll back a refused attempt's window bookkeeping. */
class Refused {
  constructor(readonly gate: LoginGate) {}
}

/**
 * Failed-login counters in the Fawn database (SQLite or PostgreSQL), shared by every process
 * over it. One transaction per attempt: each counter row is upserted in key order (which locks
 * it on PostgreSQL and restarts an expired window), then all are checked and, if none is full,
 * incremented together. A refused attempt rolls back, so it changes nothing.
 */
export class SqlLoginAttemptStore extends SqlStore implements LoginAttemptStore {
  private nextPruneAt = 0;

  async take(
    counters: readonly AttemptCounter[],
    windowMs: number,
    nowMs: number,
  ): Promise<LoginGate> {
    await this.pruneNowAndThen(nowMs);
    // Same lock order in every transaction: two attempts never wait on each other in a cycle.
    const sorted = [...counters].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    try {
      return await this.database.transaction(async (trx) => {
        let latestFullReset = 0;
        for (const { key, limit } of sorted) {
          const row = await openWindow(trx, key, windowMs, nowMs);
          if (toNumber(row.failures) >= limit) {
            latestFullReset = Math.max(latestFullReset, toNumber(row.resets_at));
          }
        }
        if (latestFullReset > 0) {
          throw new Refused({
            allowed: false,
            retryAfterSeconds: secondsUntil(latestFullReset, nowMs),
          });
        }
        await trx
          .updateTable("login_failures")
          .set((eb) => ({ failures: eb("failures", "+", 1) }))
          .where(
            "counter_key",
            "in",
            sorted.map((counter) => counter.key),
          )
          .execute();
        return { allowed: true } as const;
      });
    } catch (error) {
      if (error instanceof Refused) return error.gate;
      throw toStoreError(error, "count a login attempt");
    }
  }

  settle(refund: readonly string[], clear: readonly string[], nowMs: number): Promise<void> {
    return this.wrap("settle a login attempt", () =>
      this.database.transaction(async (trx) => {
        if (refund.length > 0) {
          await trx
            .updateTable("login_failures")
            .set((eb) => ({ failures: eb("failures", "-", 1) }))
            .where("counter_key", "in", [...refund])
            .where("failures", ">", 0)
            .where("resets_at", ">", nowMs)
            .execute();
        }
        if (clear.length > 0) {
          await trx
            .deleteFrom("login_failures")
            .where("counter_key", "in", [...clear])
            .execute();
        }
      }),
    );
  }

  /** Expired counters are only dead rows: drop them once a minute, not on every attempt. */
  private async pruneNowAndThen(nowMs: number): Promise<void> {
    if (nowMs < this.nextPruneAt) return;
    this.nextPruneAt = nowMs + PRUNE_INTERVAL_MS;
    await this.wrap("remove expired login counters", () =>
      this.db.deleteFrom("login_failures").where("resets_at", "<=", nowMs).execute(),
    );
  }
}

/** The counter's row, created empty or restarted when its window has ended; locked until commit. */
function openWindow(
  trx: SqlExecutor,
  key: string,
  windowMs: number,
  nowMs: number,
): Promise<{ failures: number; resets_at: number | string }> {
  const expired = sql<boolean>`login_failures.resets_at <= ${nowMs}`;
  return trx
    .insertInto("login_failures")
    .values({ counter_key: key, failures: 0, resets_at: nowMs + windowMs })
    .onConflict((oc) =>
      oc.column("counter_key").doUpdateSet({
        failures: sql<number>`case when ${expired} then 0 else login_failures.failures end`,
        resets_at: sql<number>`case when ${expired} then ${nowMs + windowMs} else login_failures.resets_at end`,
      }),
    )
    .returning(["failures", "resets_at"])
    .executeTakeFirstOrThrow();
}
