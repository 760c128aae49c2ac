/**
 * Scheduled runs (LangGraph "crons"), durable, and the firing protocol that makes every tick of a
 * schedule produce one run across any number of processes over the same store.
 *
 * Firing a due cron is three named steps (`CRON_FIRING_STEPS`), so tests can stop a process
 * between any two:
 * 1. `claim`: `claimDue` takes the due tick under a lease. The (cron_id, tick) pair is a unique
 *    key in the store: one claimant at a time; another may take it over only once the lease
 *    expired and only while the firing is not completed.
 * 2. `run_create`: the caller admits the run with an idempotency key derived from (cron_id,
 *    tick), so a firing retried after a crash replays the run the first attempt created.
 * 3. `advance`: `completeFiring` marks the firing done and moves `next_run_date` on, in one
 *    transaction, fenced on the claimant still holding the lease.
 */

export const CRON_FIRING_STEPS = ["claim", "run_create", "advance"] as const;
export type CronFiringStep = (typeof CRON_FIRING_STEPS)[number];

/** What happens to a stateless cron's new thread once its run completed. */
export type CronOnRunCompleted = "delete" | "keep";

export interface CronRow {
  cron_id: string;
  assistant_id: string;
  /** Null: stateless, each firing runs on a new thread. */
  thread_id: string | null;
  user_id: string;
  /** A cron expression (5 fields, or 6 with seconds first). */
  schedule: string;
  /** IANA zone the schedule is read in; null: UTC. */
  timezone: string | null;
  /** The run-create body each firing submits. */
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** Stateless crons only (null on a thread's cron). */
  on_run_completed: CronOnRunCompleted | null;
  enabled: boolean;
  /** No firing at or after this time. */
  end_time: string | null;
  /** The next tick to fire; null once the schedule ended. */
  next_run_date: string | null;
  created_at: string;
  updated_at: string;
}

export type CronPatch = Partial<
  Pick<
    CronRow,
    | "schedule"
    | "timezone"
    | "payload"
    | "metadata"
    | "on_run_completed"
    | "enabled"
    | "end_time"
    | "next_run_date"
  >
>;

export const CRON_SORT_FIELDS = [
  "cron_id",
  "assistant_id",
  "thread_id",
  "created_at",
  "updated_at",
  "next_run_date",
] as const;
export type CronSortField = (typeof CRON_SORT_FIELDS)[number];

export interface CronFilter {
  userId?: string;
  assistantId?: string;
  threadId?: string;
  enabled?: boolean;
  /** Every key/value must equal the cron's metadata entry (JSON equality). */
  metadata?: Record<string, unknown>;
}

export interface CronSearch extends CronFilter {
  limit: number;
  offset: number;
  sortBy?: CronSortField;
  sortOrder?: "asc" | "desc";
}

/** A due tick this caller holds under a lease (step `claim`). */
export interface CronClaim {
  cron: CronRow;
  /** The scheduled time being fired (the cron's `next_run_date` when claimed). */
  tick: string;
  owner: string;
  leaseExpiresAt: string;
  /** 1 for the first claim of this tick, more after takeovers. */
  attempt: number;
}

export interface ClaimDueArgs {
  now: string;
  /** Names this process (the lease holder). */
  owner: string;
  leaseSeconds: number;
  /** At most this many claims per call. */
  limit: number;
}

export interface CronStore {
  /** Inserts a new cron; a taken id is a `ConflictError`. */
  create(row: CronRow): Promise<CronRow>;
  get(cronId: string, scope?: { userId?: string }): Promise<CronRow | null>;
  /** Null when not found or not the scope's; `updated_at` is `now`. */
  update(
    cronId: string,
    patch: CronPatch,
    now: string,
    scope?: { userId?: string },
  ): Promise<CronRow | null>;
  /** Deletes the cron and its firings; false when not found or not the scope's. */
  delete(cronId: string, scope?: { userId?: string }): Promise<boolean>;
  search(query: CronSearch): Promise<CronRow[]>;
  count(filter: CronFilter): Promise<number>;
  /**
   * Step `claim`: enabled crons with `next_run_date <= now`, oldest first, each claimed for its
   * `next_run_date` tick unless another owner holds an unexpired lease on it or it is completed.
   */
  claimDue(args: ClaimDueArgs): Promise<CronClaim[]>;
  /**
   * Step `advance`: in one transaction, completes the claimed firing (only while `claim.owner`
   * still holds it) and sets `next_run_date` (only if it still is the claimed tick). False when the
   * claim was lost: another owner took it over, or it was already completed.
   */
  completeFiring(
    claim: CronClaim,
    outcome: { runId: string | null; nextRunDate: string | null; now: string },
  ): Promise<boolean>;
  close(): Promise<void>;
}
