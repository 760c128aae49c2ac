/**
 * The CronStore contract on every adapter: memory, SQLite (a temp file, two connections as two
 * processes would open it) and PostgreSQL (a database for this file; see test/helpers/postgres.ts).
 */
import { describe } from "vitest";
import { MemoryCronStore } from "../../src/stores/memory/cron-store.js";
import type { SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlCronStore } from "../../src/stores/sql/sql-cron-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { postgresShared, temporarySqliteFile, twoConnections } from "../helpers/two-connections.js";
import { describeCronStore } from "./cron-store.js";

describeCronStore("memory", async () => {
  const store = new MemoryCronStore();
  return { store, peer: store, cleanup: async () => undefined };
});

function sqlFixture(databases: Array<SqlDatabase | null>) {
  const [first, second] = databases;
  if (!first || !second) throw new Error("the test databases are not open");
  return {
    store: new SqlCronStore(first),
    peer: new SqlCronStore(second),
    cleanup: async () => undefined,
  };
}

describe("SQL crons on SQLite", () => {
  const databases = twoConnections(() => temporarySqliteFile("fawn-crons-"));
  describeCronStore("sql (sqlite)", async () => sqlFixture(databases));
});

const postgres = await createPostgresTestDatabase("crons");

describe.skipIf(postgres === null)("SQL crons on PostgreSQL", () => {
  const databases = twoConnections(async () => postgresShared(postgres));
  describeCronStore("sql (postgres)", async () => sqlFixture(databases));
});
