import { randomBytes } from "node:crypto";
import pg from "pg";

export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

export function benchPostgresUrl(): string {
  return process.env.FAWN_TEST_POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
}

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: benchPostgresUrl(),
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new `fawn_bench_<hex>` database on the test server, dropped (forcibly) by `drop()`. */
export async function freshPostgresDatabase(): Promise<FreshDatabase> {
  const name = `fawn_bench_${randomBytes(5).toString("hex")}`;
  await admin((client) => client.query(`create database "${name}"`));
  const url = new URL(benchPostgresUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin(async (client) => {
        await client.query(`drop database if exists "${name}" with (force)`);
      }),
  };
}

/** The server's version, or why it cannot be reached (then PostgreSQL rows are skipped). */
export async function postgresStatus(): Promise<{ version: string } | { unreachable: string }> {
  try {
    const version = await admin(async (client) => {
      const result = await client.query<{ server_version: string }>("show server_version");
      return result.rows[0]?.server_version ?? "unknown";
    });
    return { version };
  } catch (error) {
    return { unreachable: error instanceof Error ? error.message : String(error) };
  }
}
