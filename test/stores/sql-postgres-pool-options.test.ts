/**
 * `database.pool_size` / `pool_recycle` / `command_timeout` (the reference's keys, Fawn's too)
 * reach the PostgreSQL pool: the statement timeout the server applies is the configured one, and
 * `command_timeout: null` turns it off.
 */
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { databasePoolOptions } from "../../src/core/config/database-schema.js";
import { parseConfig } from "../../src/core/config/load-config.js";
import { openSqlDatabase } from "../../src/stores/sql/database.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const testDatabase = await createPostgresTestDatabase("pool_options");

async function statementTimeout(database: Record<string, unknown>): Promise<string> {
  if (testDatabase === null) throw new Error("no test database");
  const { config } = parseConfig(
    { database: { backend: "postgres", postgres_url: testDatabase.url, ...database } },
    { env: {}, cwd: "/srv" },
  );
  const opened = await openSqlDatabase(config.database.url, databasePoolOptions(config.database));
  try {
    const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(
      opened.db,
    );
    return rows[0]?.statement_timeout ?? "";
  } finally {
    await opened.close();
  }
}

describe.skipIf(testDatabase === null)("database pool options on PostgreSQL", () => {
  afterAll(async () => {
    await testDatabase?.drop();
  });

  it("applies command_timeout (seconds) as the statement timeout", async () => {
    expect(await statementTimeout({ command_timeout: 7, pool_size: 2, pool_recycle: 300 })).toBe(
      "7s",
    );
  });

  it("turns the statement timeout off for command_timeout: null", async () => {
    expect(await statementTimeout({ command_timeout: null })).toBe("0");
  });

  it("keeps the 30 s default when command_timeout is absent", async () => {
    expect(await statementTimeout({})).toBe("30s");
  });
});
