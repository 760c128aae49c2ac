import type { SqlDatabase } from "../database.js";

/** The SQL database behind a set of stores (`openSqlStores` exposes it), or null for others. */
export function sqlDatabaseOf(stores: object): SqlDatabase | null {
  if (!("database" in stores)) return null;
  const database = stores.database;
  if (typeof database !== "object" || database === null) return null;
  const looksLikeSql =
    "dialect" in database &&
    (database.dialect === "sqlite" || database.dialect === "postgres") &&
    "transaction" in database &&
    typeof database.transaction === "function" &&
    "executor" in database &&
    typeof database.executor === "function";
  return looksLikeSql ? (database as SqlDatabase) : null;
}
