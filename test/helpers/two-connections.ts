import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import type { PostgresTestDatabase } from "./postgres.js";

/** A database two connections open, and how to remove it afterwards. */
export interface SharedDatabase {
  url: string;
  dispose(): Promise<void>;
}

/**
 * Two connections to one database, as two processes would hold them: opened before the
 * enclosing `describe`'s tests, closed (and the database disposed of) after them. The array is
 * filled in `beforeAll`; read it inside tests only.
 */
export function twoConnections(
  open: () => Promise<SharedDatabase | null>,
): Array<SqlDatabase | null> {
  const databases: Array<SqlDatabase | null> = [null, null];
  let shared: SharedDatabase | null = null;
  beforeAll(async () => {
    shared = await open();
    if (shared === null) return;
    databases[0] = await openSqlDatabase(shared.url);
    databases[1] = await openSqlDatabase(shared.url);
  });
  afterAll(async () => {
    await Promise.all(databases.map((database) => database?.close()));
    await shared?.dispose();
  });
  return databases;
}

/** A fresh SQLite file in its own temp folder. */
export async function temporarySqliteFile(prefix: string): Promise<SharedDatabase> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return {
    url: `sqlite:${join(dir, "fawn.db")}`,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The PostgreSQL test database as a shared database (null when PostgreSQL is unreachable). */
export function postgresShared(postgres: PostgresTestDatabase | null): SharedDatabase | null {
  return postgres && { url: postgres.url, dispose: () => postgres.drop() };
}
