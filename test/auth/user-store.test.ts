/**
 * The UserStore contract on every adapter: memory, SQL on SQLite (a temp file) and SQL on
 * PostgreSQL (a database created for this file; see test/helpers/postgres.ts for the CI policy).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { MemoryUserStore } from "../../src/stores/memory/user-store.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlUserStore } from "../../src/stores/sql/user-store.js";
import { describeUserStore } from "../conformance/user-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

describeUserStore("memory", async () => ({ store: new MemoryUserStore() }));

/** A SQL store on a shared database, emptied first: the contract starts from "no users". */
async function emptiedSqlStore(database: SqlDatabase | null) {
  if (database === null) throw new Error("the test database is not open");
  for (const table of ["api_tokens", "auth_sessions", "users"] as const) {
    await database.db.deleteFrom(table).execute();
  }
  return { store: new SqlUserStore(database), cleanup: async () => undefined };
}

describe("SQL user store on SQLite", () => {
  let dir = "";
  let database: SqlDatabase | null = null;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-user-store-"));
    database = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
  });
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });
  describeUserStore("sql (sqlite)", () => emptiedSqlStore(database));
});

const postgres = await createPostgresTestDatabase("user_store");

describe.skipIf(postgres === null)("SQL user store on PostgreSQL", () => {
  let database: SqlDatabase | null = null;
  beforeAll(async () => {
    if (postgres !== null) database = await openSqlDatabase(postgres.url);
  });
  afterAll(async () => {
    await database?.close();
    await postgres?.drop();
  });
  describeUserStore("sql (postgres)", () => emptiedSqlStore(database));
});
