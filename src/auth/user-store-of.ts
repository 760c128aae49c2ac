import type { FawnStores } from "../ports/fawn-stores.js";
import type { UserStore } from "../ports/user-store.js";
import { MemoryUserStore } from "../stores/memory/user-store.js";
import { sqlDatabaseOf } from "../stores/sql/checkpoint/sql-database-of.js";
import { SqlUserStore } from "../stores/sql/user-store.js";

/**
 * The user store that lives beside a set of run stores: the same SQL database (one pool, one
 * migration history), or process memory when the stores are in memory.
 */
export function userStoreOf(stores: FawnStores): UserStore {
  const database = sqlDatabaseOf(stores);
  return database === null ? new MemoryUserStore() : new SqlUserStore(database);
}
