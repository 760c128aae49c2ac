import { z } from "zod";

/**
 * `database:` — where Fawn keeps runs, events, threads, checkpoints, the store and documents.
 * The reference's `backend` / `sqlite_dir` / `postgres_url` are turned into `url` before
 * validation (`reference-mapping.ts`); its pool keys are Fawn's own, with the same names.
 */
export const databaseConfigSchema = z.strictObject({
  /** `sqlite:<path>`, `sqlite::memory:`, `postgres://…` or `memory:` (default: FAWN_HOME/fawn.db). */
  url: z.string().min(1).optional(),
  /** PostgreSQL pool: most connections one process opens (default 10). */
  pool_size: z.number().int().min(1).max(1000).optional(),
  /** PostgreSQL pool: seconds after which a connection is closed and reopened; 0 = never. */
  pool_recycle: z.number().int().min(0).optional(),
  /**
   * PostgreSQL statement timeout in seconds (default 30); null = none, for deliberately long
   * statements.
   */
  command_timeout: z.number().positive().nullable().optional(),
});

export type DatabaseSettings = z.output<typeof databaseConfigSchema>;

/** What the SQL layer takes from `database:` besides the URL. */
export interface DatabasePoolOptions {
  poolSize?: number;
  /** 0 = never recycle. */
  poolRecycleSeconds?: number;
  /** 0 = no statement timeout. */
  statementTimeoutMs?: number;
}

export function databasePoolOptions(settings: DatabaseSettings): DatabasePoolOptions {
  const options: DatabasePoolOptions = {};
  if (settings.pool_size !== undefined) options.poolSize = settings.pool_size;
  if (settings.pool_recycle !== undefined) options.poolRecycleSeconds = settings.pool_recycle;
  if (settings.command_timeout === null) options.statementTimeoutMs = 0;
  else if (settings.command_timeout !== undefined)
    options.statementTimeoutMs = Math.round(settings.command_timeout * 1000);
  return options;
}
