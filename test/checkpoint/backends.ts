/**
 * The two databases every checkpoint scenario runs on: SQLite (a fresh file per open, so a test
 * can open a second handle on it) and PostgreSQL (one database per test file, via
 * test/helpers/postgres.ts: unreachable fails in CI, skips loudly elsewhere).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

export interface Backend {
  name: "sqlite" | "postgres";
  /** A database URL; SQLite gets a new file for every call. */
  url(): string;
}

export async function checkpointBackends(label: string): Promise<Backend[]> {
  const dir = await mkdtemp(join(tmpdir(), `fawn-${label}-`));
  let files = 0;
  const backends: Backend[] = [
    { name: "sqlite", url: () => `sqlite:${join(dir, `db-${++files}.sqlite`)}` },
  ];
  const postgres = await createPostgresTestDatabase(label);
  if (postgres !== null) backends.push({ name: "postgres", url: () => postgres.url });
  afterAll(async () => {
    await postgres?.drop();
    await rm(dir, { recursive: true, force: true });
  });
  return backends;
}
