/**
 * A SqlDatabase that counts what goes to the real one underneath, on SQLite and PostgreSQL
 * alike: statements executed (through a Kysely plugin on every executor it hands out, plus
 * batches) and transactions opened. Such counts do not depend on the machine's load, so tests
 * can pin them. (SQLite's own `traffic()` adds worker messages and round trips.)
 */
import type { KyselyPlugin } from "kysely";
import type { SqlDatabase } from "../../src/stores/sql/database.js";

export interface DatabaseCounts {
  statements: number;
  transactions: number;
}

export function countingDatabase(inner: SqlDatabase): {
  database: SqlDatabase;
  counts: DatabaseCounts;
} {
  const counts: DatabaseCounts = { statements: 0, transactions: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      counts.statements += 1;
      return args.result;
    },
  };
  const db = inner.db.withPlugin(plugin);
  const database: SqlDatabase = {
    dialect: inner.dialect,
    db,
    // Outside a transaction it is `db` itself, as for the real one (the saver tells by that).
    executor: () => {
      const executor = inner.executor();
      return executor === inner.db ? db : executor.withPlugin(plugin);
    },
    transaction: (fn) =>
      inner.transaction((trx) => {
        counts.transactions += 1;
        return fn(trx.withPlugin(plugin));
      }),
    executeBatch: (queries, options) => {
      counts.statements += queries.length;
      return inner.executeBatch(queries, options);
    },
    traffic: () => inner.traffic(),
    checkHealth: () => inner.checkHealth(),
    close: () => inner.close(),
  };
  return { database, counts };
}
