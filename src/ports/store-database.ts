/** Whether a store set's database answers and has Fawn's schema. */
export type StoreHealth = { up: true } | { up: false; reason: string };

/**
 * What callers outside the stores need of the database behind a store set: a health probe, which
 * also restores the schema of a database that was dropped and created again. The stores migrate
 * the database themselves when they open it.
 */
export interface StoreDatabase {
  checkHealth(): Promise<StoreHealth>;
  /** True while migrations run (restoring a re-created database's schema): not ready. */
  migrating?(): boolean;
}
