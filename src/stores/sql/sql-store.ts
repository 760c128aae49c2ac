import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import type { SqlDatabase, SqlExecutor } from "./database.js";
import { withStoreErrors } from "./sql-errors.js";

export interface SqlStoreOptions {
  /** Stamps `updated_at` for writes whose signature carries no `now`. */
  clock?: Clock;
  /** Close the database with the store (default false: the database is shared). */
  ownsDatabase?: boolean;
}

/**
 * What every SQL store holds: the database the store set shares, a clock, and one boundary that
 * turns driver errors into store errors. Queries go to `db`, which joins the transaction of the
 * current async context when there is one (see `SqlDatabase.executor`).
 */
export abstract class SqlStore {
  protected readonly clock: Clock;

  constructor(
    protected readonly database: SqlDatabase,
    private readonly storeOptions: SqlStoreOptions = {},
  ) {
    this.clock = storeOptions.clock ?? systemClock;
  }

  protected get db(): SqlExecutor {
    return this.database.executor();
  }

  protected now(): string {
    return isoNow(this.clock);
  }

  protected wrap<T>(action: string, fn: () => Promise<T>): Promise<T> {
    return withStoreErrors(action, fn);
  }

  /** Closes the database only when this store owns it; a shared one is closed by its opener. */
  async close(): Promise<void> {
    if (this.storeOptions.ownsDatabase === true) await this.database.close();
  }
}
