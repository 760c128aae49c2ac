import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { teamsSettings } from "./settings.js";
import type { TeamsStore } from "./store.js";

const LEASE_NAME = "service";

/**
 * Which process ticks the teams: one lease row with a holder and an expiry. The holder renews it
 * on every tick; a peer takes it over only once it expired (the holder died or stalled). The
 * check and write are one conditional statement, the same on SQLite and PostgreSQL.
 */
export class ServiceLease {
  readonly holder = randomUUID();

  constructor(
    private readonly store: TeamsStore,
    private readonly clock: () => number = Date.now,
    /** The lease's lifetime, read on every renewal (the plugin config's `lease_seconds`). */
    readonly seconds: () => number = () => teamsSettings.leaseSeconds,
  ) {}

  /** Takes or renews the lease; false while another live holder has it. */
  async acquire(): Promise<boolean> {
    const db = this.store.db;
    const at = this.clock();
    const expires = at + this.seconds() * 1000;
    await db
      .insertInto("agent_teams_lease")
      .values({ name: LEASE_NAME, holder: this.holder, expires_at: expires })
      .onConflict((oc) =>
        oc
          .column("name")
          .doUpdateSet({ holder: this.holder, expires_at: expires })
          // Qualified by the table name: the existing row (not `excluded`), on both engines.
          .where(
            sql<boolean>`agent_teams_lease.holder = ${this.holder} or agent_teams_lease.expires_at < ${at}`,
          ),
      )
      .execute();
    const row = await db
      .selectFrom("agent_teams_lease")
      .select(["holder"])
      .where("name", "=", LEASE_NAME)
      .executeTakeFirst();
    return row?.holder === this.holder;
  }

  /** Gives the lease up (a peer may take it at once). */
  async release(): Promise<void> {
    const db = this.store.db;
    await db
      .deleteFrom("agent_teams_lease")
      .where("name", "=", LEASE_NAME)
      .where("holder", "=", this.holder)
      .execute();
  }
}
