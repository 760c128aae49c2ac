import type { Clock } from "../../core/clock.js";
import type { FawnStores } from "../../ports/fawn-stores.js";
import { type OpenSqlDatabaseOptions, openSqlDatabase, type SqlDatabase } from "./database.js";
import { SqlDocumentStore } from "./documents/sql-document-store.js";
import { SqlAssistantStore } from "./sql-assistant-store.js";
import { SqlRunEventStore } from "./sql-run-event-store.js";
import { SqlRunStore } from "./sql-run-store.js";
import { SqlThreadStore } from "./sql-thread-store.js";
import { SqlUserStore } from "./user-store.js";

export interface SqlStoresOptions extends OpenSqlDatabaseOptions {
  clock?: Clock;
}

export interface SqlStores extends FawnStores<SqlDatabase> {
  runs: SqlRunStore;
  events: SqlRunEventStore;
  threads: SqlThreadStore;
  users: SqlUserStore;
  assistants: SqlAssistantStore;
  documents: SqlDocumentStore;
  /** The shared database, e.g. for a recovery guard that reads runs inside an event write. */
  database: SqlDatabase;
}

/** Stores over an already opened database; `close()` closes that database. */
export function createSqlStores(database: SqlDatabase, options: { clock?: Clock } = {}): SqlStores {
  // The individual stores do not own the database: closing one must not break the others.
  const storeOptions = { clock: options.clock, ownsDatabase: false };
  return {
    runs: new SqlRunStore(database, storeOptions),
    events: new SqlRunEventStore(database, storeOptions),
    threads: new SqlThreadStore(database, storeOptions),
    users: new SqlUserStore(database),
    assistants: new SqlAssistantStore(database, storeOptions),
    documents: new SqlDocumentStore(database, storeOptions),
    database,
    close: () => database.close(),
  };
}

/**
 * Opens `sqlite:<path>`, `sqlite::memory:` or `postgres://…`, migrates it, and returns the run,
 * event, thread and user stores sharing that one database (one worker connection or one pool).
 */
export async function openSqlStores(
  url: string,
  options: SqlStoresOptions = {},
): Promise<SqlStores> {
  const { clock, ...databaseOptions } = options;
  return createSqlStores(await openSqlDatabase(url, databaseOptions), { clock });
}
