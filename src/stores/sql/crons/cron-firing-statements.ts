import type { ClaimDueArgs, CronClaim, CronRow } from "../../../ports/cron-store.js";
import { toDbTimestamp } from "../codec.js";
import type { SqlDatabase, SqlExecutor } from "../database.js";
import { cronFromDb } from "./cron-row-codec.js";

/** Thrown inside a claim's transaction to roll it back: the cron moved on meanwhile. */
class StaleCandidate extends Error {}

/**
 * Step `claim`: the due crons whose tick has no live or completed firing, then one transaction per
 * candidate that takes the (cron_id, tick) row: inserted fresh, or taken over when its lease
 * expired and it is not completed (the upsert's `where`). Two claimants of one tick meet on the
 * primary key; the loser's upsert changes nothing. The cron row is read again inside the
 * transaction, so a candidate another process advanced meanwhile is let go.
 */
export async function claimDueFirings(
  database: SqlDatabase,
  args: ClaimDueArgs,
): Promise<CronClaim[]> {
  const now = toDbTimestamp(args.now, "now");
  const leaseExpiresAt = new Date(Date.parse(now) + args.leaseSeconds * 1000).toISOString();
  const candidates = await database
    .executor()
    .selectFrom("crons")
    .selectAll()
    .where("enabled", "=", true)
    .where("next_run_date", "is not", null)
    .where("next_run_date", "<=", now)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("cron_firings")
            .select("cron_firings.cron_id")
            .whereRef("cron_firings.cron_id", "=", "crons.cron_id")
            .whereRef("cron_firings.tick", "=", "crons.next_run_date")
            .where((eb) =>
              eb.or([
                eb("cron_firings.completed_at", "is not", null),
                eb("cron_firings.lease_expires_at", ">", now),
              ]),
            ),
        ),
      ),
    )
    .orderBy("next_run_date")
    .orderBy("cron_id")
    .limit(args.limit)
    .execute();
  const claims: CronClaim[] = [];
  for (const record of candidates) {
    const cron = cronFromDb(record);
    if (cron.next_run_date === null) continue;
    const claim = await claimOne(database, cron, cron.next_run_date, {
      owner: args.owner,
      now,
      leaseExpiresAt,
    });
    if (claim) claims.push(claim);
  }
  return claims;
}

async function claimOne(
  database: SqlDatabase,
  cron: CronRow,
  tick: string,
  lease: { owner: string; now: string; leaseExpiresAt: string },
): Promise<CronClaim | null> {
  try {
    return await database.transaction(async (trx) => {
      const taken = await trx
        .insertInto("cron_firings")
        .values({
          cron_id: cron.cron_id,
          tick,
          owner: lease.owner,
          lease_expires_at: lease.leaseExpiresAt,
          attempt: 1,
        })
        .onConflict((oc) =>
          oc
            .columns(["cron_id", "tick"])
            .doUpdateSet((eb) => ({
              owner: eb.ref("excluded.owner"),
              lease_expires_at: eb.ref("excluded.lease_expires_at"),
              attempt: eb("cron_firings.attempt", "+", 1),
            }))
            .where("cron_firings.completed_at", "is", null)
            .where("cron_firings.lease_expires_at", "<=", lease.now),
        )
        .returning("attempt")
        .executeTakeFirst();
      if (taken === undefined) return null;
      if (!(await stillDue(trx, cron.cron_id, tick))) throw new StaleCandidate();
      return {
        cron,
        tick,
        owner: lease.owner,
        leaseExpiresAt: lease.leaseExpiresAt,
        attempt: taken.attempt,
      };
    });
  } catch (error) {
    if (error instanceof StaleCandidate) return null;
    throw error;
  }
}

async function stillDue(trx: SqlExecutor, cronId: string, tick: string): Promise<boolean> {
  const row = await trx
    .selectFrom("crons")
    .select("cron_id")
    .where("cron_id", "=", cronId)
    .where("next_run_date", "=", tick)
    .where("enabled", "=", true)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Step `advance`, one transaction: complete the firing only while `claim.owner` holds it, then
 * move `next_run_date` on only if it still is the claimed tick, and drop the cron's older
 * firings. False (nothing written) when the claim was lost.
 */
export function completeClaimedFiring(
  database: SqlDatabase,
  claim: CronClaim,
  outcome: { runId: string | null; nextRunDate: string | null; now: string },
): Promise<boolean> {
  const cronId = claim.cron.cron_id;
  const tick = toDbTimestamp(claim.tick, "tick");
  const now = toDbTimestamp(outcome.now, "now");
  return database.transaction(async (trx) => {
    const completed = await trx
      .updateTable("cron_firings")
      .set({ completed_at: now, run_id: outcome.runId })
      .where("cron_id", "=", cronId)
      .where("tick", "=", tick)
      .where("owner", "=", claim.owner)
      .where("completed_at", "is", null)
      .executeTakeFirst();
    if (Number(completed.numUpdatedRows) === 0) return false;
    await trx
      .updateTable("crons")
      .set({
        next_run_date:
          outcome.nextRunDate === null ? null : toDbTimestamp(outcome.nextRunDate, "next_run_date"),
        updated_at: now,
      })
      .where("cron_id", "=", cronId)
      .where("next_run_date", "=", tick)
      .execute();
    await trx
      .deleteFrom("cron_firings")
      .where("cron_id", "=", cronId)
      .where("tick", "<", tick)
      .execute();
    return true;
  });
}
