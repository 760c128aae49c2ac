/**
 * The agent-teams `lease_seconds` config key: validated, and the lifetime the service's lease is
 * written with (a peer may take it over once that much time passed without renewal).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPluginDatabase } from "../../src/app/plugin-database.js";
import { parseConfig } from "../../src/plugins/agent-teams/config.js";
import {
  installAgentTeams,
  ServiceLease,
  TeamsStore,
  teamsOf,
  teamsSettings,
} from "../../src/plugins/agent-teams/index.js";
import { serviceDeps } from "../seeds/fixtures/teams-plugin.js";
import { Runs } from "../seeds/fixtures/teams-runs-fake.js";

const dir = await mkdtemp(join(tmpdir(), "fawn-teams-lease-config-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("agent-teams lease_seconds", () => {
  it("accepts a positive number and refuses anything else", () => {
    expect(parseConfig({ enabled: true }).leaseSeconds).toBeNull();
    expect(parseConfig({ enabled: true, lease_seconds: 2.5 }).leaseSeconds).toBe(2.5);
    for (const bad of [0, -1, "5", Number.POSITIVE_INFINITY]) {
      expect(() => parseConfig({ lease_seconds: bad })).toThrow(/lease_seconds/);
    }
  });

  it("is the lifetime the service's lease row is written with", async () => {
    const path = join(dir, "teams.sqlite");
    const teams = teamsOf(
      installAgentTeams({ enabled: true, storage_path: path, lease_seconds: 2 }),
    );
    if (teams === null) throw new Error("no Teams service");
    const runs = new Runs();
    await teams.start(serviceDeps(dir, () => runs));
    const before = Date.now();
    await teams.tick();
    const database = await openPluginDatabase("memory:", { sqlitePath: path });
    try {
      const row = await new TeamsStore(database).db
        .selectFrom("agent_teams_lease")
        .select(["expires_at"])
        .executeTakeFirstOrThrow();
      const lifetime = Number(row.expires_at) - before;
      // Far below the 30 s default; at least the configured 2 s.
      expect(lifetime).toBeGreaterThanOrEqual(2000);
      expect(lifetime).toBeLessThan(teamsSettings.leaseSeconds * 1000);
      // A peer on the default lifetime still respects the holder's shorter one.
      let clock = Date.now();
      const peer = new ServiceLease(new TeamsStore(database), () => clock);
      expect(await peer.acquire()).toBe(false);
      clock = Number(row.expires_at) + 1;
      expect(await peer.acquire()).toBe(true);
    } finally {
      await database.close();
      await teams.stop();
    }
  });
});
