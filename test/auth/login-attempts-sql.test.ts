/**
 * The LoginAttemptStore contract on the SQL adapter: SQLite (a temp file, two connections as two
 * processes would open it) and PostgreSQL (a database for this file; see test/helpers/postgres.ts).
 */
import { describe } from "vitest";
import type { SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlLoginAttemptStore } from "../../src/stores/sql/login-attempt-store.js";
import { describeLoginAttemptStore } from "../conformance/login-attempt-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { postgresShared, temporarySqliteFile, twoConnections } from "../helpers/two-connections.js";

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
  const databases = twoConnections(() => temporarySqliteFile("fawn-login-attempts-"));
  describeLoginAttemptStore("sql (sqlite)", async () => sqlFixture(databases), {
    shared: true,
  });
});

const postgres = await createPostgresTestDatabase("login_attempts");

describe.skipIf(postgres === null)("SQL login attempts on PostgreSQL", () => {
  const databases = twoConnections(async () => postgresShared(postgres));
  describeLoginAttemptStore("sql (postgres)", async () => sqlFixture(databases), {
    shared: true,
  });
});
