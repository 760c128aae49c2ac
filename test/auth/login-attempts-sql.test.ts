/**
 * The LoginAttemptStore contract on the SQL adapter: SQLite (a temp file, two connections as two
 * processes would open it) and PostgreSQL (a database for this file; see test/helpers/postgres.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlLoginAttemptStore } from "../../src/stores/sql/login-attempt-store.js";
import { describeLoginAttemptStore } from "../conformance/login-attempt-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

function sqlFixture(databases: Array<SqlDatabase | null>) {
  const [first, second] = databases;
  if (!first || !second) throw new Error("the test databases are not open");
  return {
    store: new SqlLoginAttemptStore(first),
    peer: new SqlLoginAttemptStore(second),
    cleanup: async () => undefined,
  };
}

describe("SQL login attempts on SQLite", () => {
  let dir = "";
  const databases: Array<SqlDatabase | null> = [null, null];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-login-attempts-"));
    databases[0] = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
    databases[1] = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
  });
  afterAll(async () => {
    await Promise.all(databases.map((database) => database?.close()));
    await rm(dir, { recursive: true, force: true });
  });
  describeLoginAttemptStore("sql (sqlite)", async () => sqlFixture(databases), {
    shared: true,
  });
});

const postgres = await createPostgresTestDatabase("login_attempts");

describe.skipIf(postgres === null)("SQL login attempts on PostgreSQL", () => {
  const databases: Array<SqlDatabase | null> = [null, null];
  beforeAll(async () => {
    if (postgres === null) return;
    databases[0] = await openSqlDatabase(postgres.url);
    databases[1] = await openSqlDatabase(postgres.url);
  });
  afterAll(async () => {
    await Promise.all(databases.map((database) => database?.close()));
    await postgres?.drop();
  });
  describeLoginAttemptStore("sql (postgres)", async () => sqlFixture(databases), {
    shared: true,
  });
});
