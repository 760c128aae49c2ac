/**
 * An isolated PostgreSQL database per test file, so parallel test files never see each other's
 * rows, advisory locks or migrations. In CI an unreachable server fails the file; elsewhere the
 * caller skips its PostgreSQL suites and we say so loudly.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const DEFAULT_TEST_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

export function testPostgresUrl(): string {
  return process.env.FAWN_TEST_POSTGRES_URL ?? DEFAULT_TEST_POSTGRES_URL;
}

export interface PostgresTestDatabase {
  /** Connection URL of the fresh database. */
  url: string;
  name: string;
  /** Drops the database (terminating any connection still open to it). */
  drop(): Promise<void>;
  /** Creates it again, empty, under the same name (after `drop`). */
  recreate(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: testPostgresUrl(),
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** CI systems set CI=true (or 1); treat an explicit false/0 as a local run. */
function inCi(): boolean {
  const value = process.env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "false" && value !== "0";
}

function warnSkipped(reason: string): void {
  const line = "!".repeat(78);
  console.warn(
    `\n${line}\n!! PostgreSQL tests SKIPPED: ${reason}\n` +
      `!! Set FAWN_TEST_POSTGRES_URL (default ${DEFAULT_TEST_POSTGRES_URL}) to run them.\n` +
      `!! In CI these tests fail instead of skipping.\n${line}\n`,
  );
}

/**
 * Creates `fawn_test_<label>_<random>` on the test server. Returns null (after a loud warning)
 * when the server is unreachable outside CI; throws in CI.
 */
export async function createPostgresTestDatabase(
  label: string,
): Promise<PostgresTestDatabase | null> {
  const safeLabel = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 24);
  const name = `fawn_test_${safeLabel}_${randomBytes(4).toString("hex")}`;
  try {
    await withAdminClient((client) => client.query(`create database "${name}"`));
  } catch (error) {
    const reason = `cannot reach ${testPostgresUrl()} (${error instanceof Error ? error.message : String(error)})`;
    if (inCi()) throw new Error(`PostgreSQL is required in CI: ${reason}`, { cause: error });
    warnSkipped(reason);
    return null;
  }
  return {
    url: withDatabase(testPostgresUrl(), name),
    name,
    drop: () =>
      withAdminClient(async (client) => {
        await client.query(`drop database if exists "${name}" with (force)`);
      }),
    recreate: () =>
      withAdminClient(async (client) => {
        await client.query(`create database "${name}"`);
      }),
  };
}
