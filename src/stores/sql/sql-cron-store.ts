import { isDeepStrictEqual } from "node:util";
import type { SelectQueryBuilder } from "kysely";
import { ConflictError } from "../../core/errors.js";
import type {
  ClaimDueArgs,
  CronClaim,
  CronFilter,
  CronPatch,
  CronRow,
  CronSearch,
  CronStore,
} from "../../ports/cron-store.js";
import { toNumber } from "./codec.js";
import { claimDueFirings, completeClaimedFiring } from "./crons/cron-firing-statements.js";
import { cronFromDb, cronPatchToDb, cronToDb } from "./crons/cron-row-codec.js";
import type { FawnTables } from "./schema.js";
import { isUniqueViolation } from "./sql-errors.js";
import { SqlStore } from "./sql-store.js";
import { metadataFilter } from "./thread-metadata-filter.js";

type Scope = { userId?: string };
type CronQuery = SelectQueryBuilder<FawnTables, "crons", object>;

/** A search whose metadata needs a JS comparison reads at most this many candidate rows. */
const MAX_JS_FILTERED_ROWS = 10_000;

/** Crons in the Fawn database (SQLite or PostgreSQL); the firing protocol in `crons/`. */
export class SqlCronStore extends SqlStore implements CronStore {
  create(row: CronRow): Promise<CronRow> {
    return this.wrap("create a cron", async () => {
      try {
        const inserted = await this.db
          .insertInto("crons")
          .values(cronToDb(row))
          .returningAll()
          .executeTakeFirstOrThrow();
        return cronFromDb(inserted);
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ConflictError(`Cron ${row.cron_id} already exists.`);
        throw error;
      }
    });
  }

  get(cronId: string, scope: Scope = {}): Promise<CronRow | null> {
    return this.wrap("read a cron", async () => {
      const record = await this.db
        .selectFrom("crons")
        .selectAll()
        .where("cron_id", "=", cronId)
        .$if(scope.userId !== undefined, (qb) => qb.where("user_id", "=", scope.userId ?? ""))
        .executeTakeFirst();
      return record === undefined ? null : cronFromDb(record);
    });
  }

  update(
    cronId: string,
    patch: CronPatch,
    now: string,
    scope: Scope = {},
  ): Promise<CronRow | null> {
    return this.wrap("update a cron", async () => {
      const record = await this.db
        .updateTable("crons")
        .set(cronPatchToDb(patch, now))
        .where("cron_id", "=", cronId)
        .$if(scope.userId !== undefined, (qb) => qb.where("user_id", "=", scope.userId ?? ""))
        .returningAll()
        .executeTakeFirst();
      return record === undefined ? null : cronFromDb(record);
    });
  }

  delete(cronId: string, scope: Scope = {}): Promise<boolean> {
    return this.wrap("delete a cron", () =>
      this.database.transaction(async (trx) => {
        const deleted = await trx
          .deleteFrom("crons")
          .where("cron_id", "=", cronId)
          .$if(scope.userId !== undefined, (qb) => qb.where("user_id", "=", scope.userId ?? ""))
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) === 0) return false;
        await trx.deleteFrom("cron_firings").where("cron_id", "=", cronId).execute();
        return true;
      }),
    );
  }

  search(query: CronSearch): Promise<CronRow[]> {
    return this.wrap("search crons", async () => {
      if (query.limit <= 0) return [];
      const { exact } = metadataFilter(this.database.dialect, query.metadata);
      const direction = query.sortOrder === "asc" ? "asc" : "desc";
      const ordered = this.filtered(query)
        .selectAll()
        .orderBy(query.sortBy ?? "created_at", direction)
        .orderBy("cron_id", direction);
      if (exact) {
        const records = await ordered.limit(query.limit).offset(query.offset).execute();
        return records.map(cronFromDb);
      }
      const records = await ordered.limit(MAX_JS_FILTERED_ROWS).execute();
      return records
        .map(cronFromDb)
        .filter((row) => metadataMatches(row, query.metadata))
        .slice(query.offset, query.offset + query.limit);
    });
  }

  count(filter: CronFilter): Promise<number> {
    return this.wrap("count crons", async () => {
      const { exact } = metadataFilter(this.database.dialect, filter.metadata);
      if (exact) {
        const row = await this.filtered(filter)
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .executeTakeFirst();
        return toNumber(row?.n);
      }
      const records = await this.filtered(filter).selectAll().limit(MAX_JS_FILTERED_ROWS).execute();
      return records.map(cronFromDb).filter((row) => metadataMatches(row, filter.metadata)).length;
    });
  }

  claimDue(args: ClaimDueArgs): Promise<CronClaim[]> {
    return this.wrap("claim due crons", () => claimDueFirings(this.database, args));
  }

  completeFiring(
    claim: CronClaim,
    outcome: { runId: string | null; nextRunDate: string | null; now: string },
  ): Promise<boolean> {
    return this.wrap("complete a cron firing", () =>
      completeClaimedFiring(this.database, claim, outcome),
    );
  }

  /** Every filter SQL can decide; metadata keys it cannot are left to `metadataMatches`. */
  private filtered(filter: CronFilter): CronQuery {
    const { conditions } = metadataFilter(this.database.dialect, filter.metadata);
    let query: CronQuery = this.db.selectFrom("crons");
    if (filter.userId !== undefined) query = query.where("user_id", "=", filter.userId);
    if (filter.assistantId !== undefined)
      query = query.where("assistant_id", "=", filter.assistantId);
    if (filter.threadId !== undefined) query = query.where("thread_id", "=", filter.threadId);
    if (filter.enabled !== undefined) query = query.where("enabled", "=", filter.enabled);
    for (const condition of conditions) query = query.where(condition);
    return query;
  }
}

function metadataMatches(row: CronRow, wanted: Record<string, unknown> | undefined): boolean {
  return Object.entries(wanted ?? {}).every(([key, value]) =>
    isDeepStrictEqual(row.metadata[key], value),
  );
}
