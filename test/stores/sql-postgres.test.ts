/**
 * The shared store contracts against the SQL adapters on PostgreSQL, in a database created for
 * this file and dropped afterwards (see test/helpers/postgres.ts for the CI/skip policy).
 */
import { afterAll, beforeAll, describe } from "vitest";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlRunEventStore } from "../../src/stores/sql/sql-run-event-store.js";
import { SqlRunStore } from "../../src/stores/sql/sql-run-store.js";
import { SqlThreadStore } from "../../src/stores/sql/sql-thread-store.js";
import { describeRunEventStore } from "../conformance/run-event-store.js";
import { describeRunStore } from "../conformance/run-store.js";
import { describeThreadStore } from "../conformance/thread-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const testDatabase = await createPostgresTestDatabase("sql_conformance");
let database: SqlDatabase | null = null;

function opened(): SqlDatabase {
  if (database === null) throw new Error("the PostgreSQL test database is not open");
  return database;
}

// Stores share the file's database; closing one must not close it for the next test.
const keepOpen = async (): Promise<void> => undefined;

describe.skipIf(testDatabase === null)("SQL stores on PostgreSQL", () => {
  beforeAll(async () => {
    if (testDatabase !== null) database = await openSqlDatabase(testDatabase.url);
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  describeRunStore("sql (postgres)", async () => ({
    store: new SqlRunStore(opened()),
    cleanup: keepOpen,
  }));

  describeRunEventStore("sql (postgres)", async () => ({
    store: new SqlRunEventStore(opened()),
    runs: new SqlRunStore(opened()),
    cleanup: keepOpen,
  }));

  describeThreadStore("sql (postgres)", async () => ({
    store: new SqlThreadStore(opened()),
    runs: new SqlRunStore(opened()),
    cleanup: keepOpen,
  }));
});
