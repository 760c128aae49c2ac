/**
 * The CronStore contract on every adapter: memory, SQLite (a temp file, two connections as two
 * processes would open it) and PostgreSQL (a database for this file; see test/helpers/postgres.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { MemoryCronStore } from "../../src/stores/memory/cron-store.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlCronStore } from "../../src/stores/sql/sql-cron-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
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
  let dir = "";
  const databases: Array<SqlDatabase | null> = [null, null];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-crons-"));
    databases[0] = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
    databases[1] = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
  });
  afterAll(async () => {
    await Promise.all(databases.map((database) => database?.close()));
    await rm(dir, { recursive: true, force: true });
  });
  describeCronStore("sql (sqlite)", async () => sqlFixture(databases));
});

const postgres = await createPostgresTestDatabase("crons");

describe.skipIf(postgres === null)("SQL crons on PostgreSQL", () => {
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
  describeCronStore("sql (postgres)", async () => sqlFixture(databases));
});
