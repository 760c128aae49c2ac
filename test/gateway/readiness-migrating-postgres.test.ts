/**
 * `GET /health/ready` on real PostgreSQL while migrations run: the database is dropped and
 * created again empty, and another connection holds the migrations' advisory lock, so the
 * server's schema restore waits on it. Meanwhile readiness is 503 (`store_unavailable`, the
 * schema being migrated) and liveness 200; once the lock is released the schema comes back and
 * readiness is 200.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ADVISORY_CLASS_MIGRATIONS } from "../../src/stores/sql/database.js";
import { type ServedGateway, startServedGateway } from "../e2e/helpers/served-gateway.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const postgres = await createPostgresTestDatabase("migrating");
const opened: ServedGateway[] = [];

afterAll(async () => {
  for (const served of opened.splice(0)) await served.close();
  await postgres?.drop();
});

async function readiness(url: string): Promise<{ status: number; detail: string }> {
  const response = await fetch(`${url}/health/ready`);
  const body = (await response.json()) as { detail?: string };
  return { status: response.status, detail: body.detail ?? "" };
}

describe.skipIf(postgres === null)("GET /health/ready while migrations run", () => {
  it("is 503 while the schema is being restored and 200 once it is", async () => {
    const url = postgres?.url ?? "";
    const served = await startServedGateway({
      config: () => ({ database: { url }, sandbox: { use: "local" } }),
    });
    opened.push(served);
    expect((await readiness(served.url)).status).toBe(200);

    await postgres?.drop();
    await postgres?.recreate();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("select pg_advisory_lock($1, 0)", [ADVISORY_CLASS_MIGRATIONS]);
      // A probe finds the schema gone and starts restoring it; the restore waits on the lock.
      await expect
        .poll(async () => (await readiness(served.url)).detail, { timeout: 20_000 })
        .toContain("being migrated");
      expect((await readiness(served.url)).status).toBe(503);
      expect((await fetch(`${served.url}/health/live`)).status).toBe(200);
    } finally {
      await holder.query("select pg_advisory_unlock($1, 0)", [ADVISORY_CLASS_MIGRATIONS]);
      await holder.end();
    }
    await expect
      .poll(async () => (await readiness(served.url)).status, { timeout: 20_000 })
      .toBe(200);
  }, 60_000);
});
