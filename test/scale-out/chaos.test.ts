/**
 * The chaos script in a tiny configuration: three `fawn serve` processes on PostgreSQL and a
 * private Redis, two SDK clients streaming runs, one SIGKILL of a process mid-way. The checker
 * must find no violation (see bench/chaos/ for the full run and its report section).
 */
import { afterAll, describe, expect, it } from "vitest";
import { runChaos } from "../../bench/chaos/chaos-run.js";
import { removeBundles } from "../../bench/lib/bundle.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { startPrivateRedis } from "../helpers/redis.js";

// Probes only: the chaos run makes its own database and Redis.
const postgres = await createPostgresTestDatabase("chaos_probe");
await postgres?.drop();
const redis = await startPrivateRedis();
await redis?.stop();

afterAll(removeBundles);

describe.skipIf(postgres === null || redis === null)("chaos, tiny", () => {
  it("one SIGKILL under streaming clients leaves no violation", async () => {
    const result = await runChaos({
      processes: 3,
      seconds: 10,
      clients: 2,
      faults: ["kill"],
      seed: 7,
      log: () => undefined,
    });
    expect(result.kills).toBe(1);
    expect(result.runs).toBeGreaterThan(0);
    expect(result.violations).toEqual([]);
  }, 90_000);
});
