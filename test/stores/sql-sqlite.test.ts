/** The shared store contracts against the SQL adapters on SQLite (a temp file per test file). */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlRunEventStore } from "../../src/stores/sql/sql-run-event-store.js";
import { SqlRunStore } from "../../src/stores/sql/sql-run-store.js";
import { SqlThreadStore } from "../../src/stores/sql/sql-thread-store.js";
import { describeRunEventStore } from "../conformance/run-event-store.js";
import { describeRunStore } from "../conformance/run-store.js";
import { describeThreadStore } from "../conformance/thread-store.js";

let dir = "";
let database: SqlDatabase | null = null;

function opened(): SqlDatabase {
  if (database === null) throw new Error("the SQLite test database is not open");
  return database;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fawn-sql-sqlite-"));
  database = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
});

afterAll(async () => {
  await database?.close();
  await rm(dir, { recursive: true, force: true });
});

// Stores share the file's database; closing one must not close it for the next test.
const keepOpen = async (): Promise<void> => undefined;

describeRunStore("sql (sqlite)", async () => ({
  store: new SqlRunStore(opened()),
  cleanup: keepOpen,
}));

describeRunEventStore("sql (sqlite)", async () => ({
  store: new SqlRunEventStore(opened()),
  runs: new SqlRunStore(opened()),
  cleanup: keepOpen,
}));

describeThreadStore("sql (sqlite)", async () => ({
  store: new SqlThreadStore(opened()),
  runs: new SqlRunStore(opened()),
  cleanup: keepOpen,
}));
