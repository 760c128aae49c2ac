import { Cron } from "croner";
import { ValidationError } from "../../core/errors.js";

/** A validated schedule: its expression and the zone it is read in (null: UTC). */
export interface CronSchedule {
  schedule: string;
  timezone: string | null;
}

function parsed({ schedule, timezone }: CronSchedule): Cron {
  // No callback: croner only evaluates the pattern, it starts no timer.
  return new Cron(schedule, { timezone: timezone ?? "UTC", paused: true });
}

/** 422 unless the expression parses and the zone is a known IANA zone. */
export function checkSchedule(value: CronSchedule): void {
  if (value.timezone !== null) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: value.timezone });
    } catch {
      throw new ValidationError(
        `Unknown timezone ${JSON.stringify(value.timezone)}; use an IANA zone such as "Europe/Paris".`,
      );
    }
  }
  try {
    parsed(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(
      `Invalid schedule ${JSON.stringify(value.schedule)}: ${reason} Use a cron expression such as "*/5 * * * *".`,
    );
  }
}

/**
 * The first tick strictly after `after`, or null when there is none before `endTime` (the
 * schedule has ended). Ticks missed while no process was polling are not replayed one by one:
 * the next firing is the first tick after the time it is computed at.
 */
export function nextRunAfter(
  value: CronSchedule,
  after: Date,
  endTime: string | null,
): string | null {
  const next = parsed(value).nextRun(after);
  if (next === null) return null;
  if (endTime !== null && next.getTime() >= Date.parse(endTime)) return null;
  return next.toISOString();
}
