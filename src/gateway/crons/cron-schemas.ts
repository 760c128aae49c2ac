import { z } from "zod";
import { CRON_SORT_FIELDS } from "../../ports/cron-store.js";
import { idString, jsonFilter, MAX_PAGE } from "../http/json-schemas.js";
import { runCreateBody } from "../runs/run-schemas.js";

/** What a cron adds to a run-create body; the rest of the body is the run each firing submits. */
const scheduleFields = {
  schedule: z.string().min(1).max(256),
  timezone: z.string().min(1).max(64).nullish(),
  end_time: z.iso.datetime({ offset: true }).nullish(),
  enabled: z.boolean().nullish(),
  on_run_completed: z.enum(["delete", "keep"]).nullish(),
};

/**
 * `POST /runs/crons` and `POST /threads/{id}/runs/crons`: the run fields a scheduled run can use
 * (no resume point, `command` or client-disconnect handling: no client waits on it).
 */
export const cronCreateBody = runCreateBody
  .omit({
    command: true,
    checkpoint: true,
    checkpoint_id: true,
    strict_resume: true,
    on_completion: true,
    on_disconnect: true,
    if_not_exists: true,
  })
  .extend({ ...scheduleFields, assistant_id: z.string().min(1).max(128) });
export type CronCreateBody = z.output<typeof cronCreateBody>;

/** `PATCH /runs/crons/{id}`: every field optional; `end_time: null` clears the end. */
export const cronUpdateBody = cronCreateBody
  .omit({ assistant_id: true, multitask_strategy: true, after_seconds: true })
  .partial()
  .extend({ schedule: scheduleFields.schedule.nullish() });
export type CronUpdateBody = z.output<typeof cronUpdateBody>;

export const CRON_SELECT_FIELDS = [
  "cron_id",
  "assistant_id",
  "thread_id",
  "on_run_completed",
  "end_time",
  "schedule",
  "timezone",
  "created_at",
  "updated_at",
  "payload",
  "user_id",
  "next_run_date",
  "metadata",
  "enabled",
  // The server's time when it answered (as the platform offers it).
  "now",
] as const;
export type CronSelectField = (typeof CRON_SELECT_FIELDS)[number];

const filterFields = {
  assistant_id: z.string().min(1).max(128).nullish(),
  thread_id: idString.nullish(),
  metadata: jsonFilter.nullish(),
};

export const cronSearchBody = z.strictObject({
  ...filterFields,
  enabled: z.boolean().nullish(),
  limit: z.number().int().min(1).max(MAX_PAGE).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
  sort_by: z.enum(CRON_SORT_FIELDS).nullish(),
  sort_order: z.enum(["asc", "desc"]).nullish(),
  select: z.array(z.enum(CRON_SELECT_FIELDS)).max(CRON_SELECT_FIELDS.length).nullish(),
});
export type CronSearchBody = z.output<typeof cronSearchBody>;

export const cronCountBody = z.strictObject(filterFields);
export type CronCountBody = z.output<typeof cronCountBody>;
