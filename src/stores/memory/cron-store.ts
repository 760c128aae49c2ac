import { isDeepStrictEqual } from "node:util";
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

interface Firing {
  owner: string;
  leaseExpiresAt: string;
  attempt: number;
  completed: boolean;
}

const ms = (iso: string): number => Date.parse(iso);

/**
 * Crons and their firings in maps (one process). Every method runs without an await between its
 * check and its write, so each is atomic like the SQL transaction it mirrors.
 */
export class MemoryCronStore implements CronStore {
  private readonly rows = new Map<string, CronRow>();
  /** `${cron_id}\n${tick}` → the firing of that tick. */
  private readonly firings = new Map<string, Firing>();

  async create(row: CronRow): Promise<CronRow> {
    if (this.rows.has(row.cron_id)) throw new ConflictError(`Cron ${row.cron_id} already exists.`);
    this.rows.set(row.cron_id, structuredClone(row));
    return structuredClone(row);
  }

  async get(cronId: string, scope: { userId?: string } = {}): Promise<CronRow | null> {
    const row = this.owned(cronId, scope.userId);
    return row ? structuredClone(row) : null;
  }

  async update(
    cronId: string,
    patch: CronPatch,
    now: string,
    scope: { userId?: string } = {},
  ): Promise<CronRow | null> {
    const row = this.owned(cronId, scope.userId);
    if (!row) return null;
    Object.assign(row, structuredClone(patch), { updated_at: now });
    return structuredClone(row);
  }

  async delete(cronId: string, scope: { userId?: string } = {}): Promise<boolean> {
    if (!this.owned(cronId, scope.userId)) return false;
    this.rows.delete(cronId);
    for (const key of [...this.firings.keys()]) {
      if (key.startsWith(`${cronId}\n`)) this.firings.delete(key);
    }
    return true;
  }

  async search(query: CronSearch): Promise<CronRow[]> {
    const sortBy = query.sortBy ?? "created_at";
    const direction = query.sortOrder === "asc" ? 1 : -1;
    return this.matching(query)
      .sort((a, b) => direction * compareNullable(a[sortBy], b[sortBy]) || compare(a, b))
      .slice(query.offset, query.offset + query.limit)
      .map((row) => structuredClone(row));
  }

  async count(filter: CronFilter): Promise<number> {
    return this.matching(filter).length;
  }

  async claimDue(args: ClaimDueArgs): Promise<CronClaim[]> {
    const due = [...this.rows.values()]
      .filter(
        (row): row is CronRow & { next_run_date: string } =>
          row.enabled && row.next_run_date !== null && ms(row.next_run_date) <= ms(args.now),
      )
      .sort((a, b) => ms(a.next_run_date) - ms(b.next_run_date));
    const leaseExpiresAt = new Date(ms(args.now) + args.leaseSeconds * 1000).toISOString();
    const claims: CronClaim[] = [];
    for (const row of due) {
      if (claims.length >= args.limit) break;
      const key = `${row.cron_id}\n${row.next_run_date}`;
      const firing = this.firings.get(key);
      if (firing && (firing.completed || ms(firing.leaseExpiresAt) > ms(args.now))) continue;
      const attempt = (firing?.attempt ?? 0) + 1;
      this.firings.set(key, { owner: args.owner, leaseExpiresAt, attempt, completed: false });
      claims.push({
        cron: structuredClone(row),
        tick: row.next_run_date,
        owner: args.owner,
        leaseExpiresAt,
        attempt,
      });
    }
    return claims;
  }

  async completeFiring(
    claim: CronClaim,
    outcome: { runId: string | null; nextRunDate: string | null; now: string },
  ): Promise<boolean> {
    const cronId = claim.cron.cron_id;
    const firing = this.firings.get(`${cronId}\n${claim.tick}`);
    if (!firing || firing.completed || firing.owner !== claim.owner) return false;
    firing.completed = true;
    const row = this.rows.get(cronId);
    if (row && row.next_run_date === claim.tick) {
      row.next_run_date = outcome.nextRunDate;
      row.updated_at = outcome.now;
    }
    // Only the newest completed firing is kept: it refuses a late claim of the same tick.
    for (const key of [...this.firings.keys()]) {
      const [id, tick] = key.split("\n");
      if (id === cronId && tick !== undefined && ms(tick) < ms(claim.tick))
        this.firings.delete(key);
    }
    return true;
  }

  async close(): Promise<void> {}

  private owned(cronId: string, userId: string | undefined): CronRow | undefined {
    const row = this.rows.get(cronId);
    if (!row || (userId !== undefined && row.user_id !== userId)) return undefined;
    return row;
  }

  private matching(filter: CronFilter): CronRow[] {
    return [...this.rows.values()].filter(
      (row) =>
        (filter.userId === undefined || row.user_id === filter.userId) &&
        (filter.assistantId === undefined || row.assistant_id === filter.assistantId) &&
        (filter.threadId === undefined || row.thread_id === filter.threadId) &&
        (filter.enabled === undefined || row.enabled === filter.enabled) &&
        Object.entries(filter.metadata ?? {}).every(([key, value]) =>
          isDeepStrictEqual(row.metadata[key], value),
        ),
    );
  }
}

function compareNullable(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** Ties break on the id, so pages never overlap. */
function compare(a: CronRow, b: CronRow): number {
  return a.cron_id < b.cron_id ? -1 : a.cron_id > b.cron_id ? 1 : 0;
}
