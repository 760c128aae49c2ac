import type { Insertable, Selectable } from "kysely";
import type { CronOnRunCompleted, CronPatch, CronRow } from "../../../ports/cron-store.js";
import {
  fromDbObject,
  fromDbTimestamp,
  fromDbTimestampOrNull,
  toBoolean,
  toDbJson,
  toDbTimestamp,
  toDbTimestampOrNull,
} from "../codec.js";
import type { CronsTable } from "../schema.js";

function onRunCompletedOf(value: string | null): CronOnRunCompleted | null {
  return value === "delete" || value === "keep" ? value : null;
}

export function cronFromDb(record: Selectable<CronsTable>): CronRow {
  return {
    cron_id: record.cron_id,
    assistant_id: record.assistant_id,
    thread_id: record.thread_id,
    user_id: record.user_id,
    schedule: record.schedule,
    timezone: record.timezone,
    payload: fromDbObject(record.payload_json),
    metadata: fromDbObject(record.metadata_json),
    on_run_completed: onRunCompletedOf(record.on_run_completed),
    enabled: toBoolean(record.enabled),
    end_time: fromDbTimestampOrNull(record.end_time),
    next_run_date: fromDbTimestampOrNull(record.next_run_date),
    created_at: fromDbTimestamp(record.created_at),
    updated_at: fromDbTimestamp(record.updated_at),
  };
}

export function cronToDb(row: CronRow): Insertable<CronsTable> {
  return {
    cron_id: row.cron_id,
    assistant_id: row.assistant_id,
    thread_id: row.thread_id,
    user_id: row.user_id,
    schedule: row.schedule,
    timezone: row.timezone,
    payload_json: toDbJson(row.payload),
    metadata_json: toDbJson(row.metadata),
    on_run_completed: row.on_run_completed,
    enabled: row.enabled,
    end_time: toDbTimestampOrNull(row.end_time, "end_time"),
    next_run_date: toDbTimestampOrNull(row.next_run_date, "next_run_date"),
    created_at: toDbTimestamp(row.created_at, "created_at"),
    updated_at: toDbTimestamp(row.updated_at, "updated_at"),
  };
}

/** The columns a patch sets (only the fields it names). */
export function cronPatchToDb(patch: CronPatch, now: string): Partial<Insertable<CronsTable>> {
  return {
    ...(patch.schedule === undefined ? {} : { schedule: patch.schedule }),
    ...(patch.timezone === undefined ? {} : { timezone: patch.timezone }),
    ...(patch.payload === undefined ? {} : { payload_json: toDbJson(patch.payload) }),
    ...(patch.metadata === undefined ? {} : { metadata_json: toDbJson(patch.metadata) }),
    ...(patch.on_run_completed === undefined ? {} : { on_run_completed: patch.on_run_completed }),
    ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
    ...(patch.end_time === undefined
      ? {}
      : { end_time: toDbTimestampOrNull(patch.end_time, "end_time") }),
    ...(patch.next_run_date === undefined
      ? {}
      : { next_run_date: toDbTimestampOrNull(patch.next_run_date, "next_run_date") }),
    updated_at: toDbTimestamp(now, "now"),
  };
}
