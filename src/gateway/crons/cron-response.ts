import type { CronRow } from "../../ports/cron-store.js";
import type { CronSelectField } from "./cron-schemas.js";

/** A cron as the LangGraph API shows it (`on_run_completed` only on stateless crons). */
export function toApiCron(row: CronRow): Record<string, unknown> {
  return {
    cron_id: row.cron_id,
    assistant_id: row.assistant_id,
    thread_id: row.thread_id,
    ...(row.thread_id === null ? { on_run_completed: row.on_run_completed ?? "delete" } : {}),
    end_time: row.end_time,
    schedule: row.schedule,
    timezone: row.timezone,
    created_at: row.created_at,
    updated_at: row.updated_at,
    payload: row.payload,
    user_id: row.user_id,
    next_run_date: row.next_run_date,
    metadata: row.metadata,
    enabled: row.enabled,
  };
}

/** Only the `select`ed fields (all when none is named); `now` is the answer's time. */
export function selectFields(
  cron: Record<string, unknown>,
  select: readonly CronSelectField[] | null | undefined,
  now: string,
): Record<string, unknown> {
  if (!select || select.length === 0) return cron;
  const withNow: Record<string, unknown> = { ...cron, now };
  return Object.fromEntries(
    select.filter((key) => key in withNow).map((key) => [key, withNow[key]]),
  );
}
