/**
 * `GET /health/ready` over real PostgreSQL: 200 while the database answers, 503
 * `store_unavailable` while it is gone, 200 again once it is back. `metrics.enabled: false`
 * removes `GET /metrics`.
 */
import { afterAll, describe, expect, it } from "vitest";
import { type ServedGateway, startServedGateway } from "../e2e/helpers/served-gateway.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const postgres = await createPostgresTestDatabase("readiness");
const opened: ServedGateway[] = [];

afterAll(async () => {
  for (const served of opened.splice(0)) await served.close();
  await postgres?.drop();
});

describe.skipIf(postgres === null)("GET /health/ready on PostgreSQL", () => {
  it("is 503 while the database is unreachable and 200 once it is back", async () => {
    const url = postgres?.url ?? "";
    const served = await startServedGateway({
      config: () => ({ database: { url }, sandbox: { use: "local" }, metrics: { enabled: false } }),
    });
    opened.push(served);
    expect((await fetch(`${served.url}/health/ready`)).status).toBe(200);
    // Metrics switched off: the route is not served (the JSON 404, not the workspace).
    expect((await fetch(`${served.url}/metrics`)).status).toBe(404);

    await postgres?.drop();
    const down = await fetch(`${served.url}/health/ready`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ code: "store_unavailable" });
    expect((await fetch(`${served.url}/health/live`)).status).toBe(200);

    await postgres?.recreate();
    expect((await fetch(`${served.url}/health/ready`)).status).toBe(200);
  }, 60_000);
});
