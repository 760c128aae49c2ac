/**
 * A scheduled task's schedule as the form edits it (a preset or a cron expression) and as the
 * list reads it back: a cron text the server stores, and its meaning in words.
 */

export type SchedulePreset =
  | { kind: "hourly"; minute: number }
  | { kind: "daily"; hour: number; minute: number }
  | { kind: "weekly"; weekday: number; hour: number; minute: number }
  | { kind: "cron"; expression: string };

/** The cron text of a preset (5 fields: minute hour day-of-month month day-of-week). */
export function cronOf(preset: SchedulePreset): string {
  switch (preset.kind) {
    case "hourly":
      return `${preset.minute} * * * *`;
    case "daily":
      return `${preset.minute} ${preset.hour} * * *`;
    case "weekly":
      return `${preset.minute} ${preset.hour} * * ${preset.weekday}`;
    case "cron":
      return preset.expression.trim().replace(/\s+/g, " ");
  }
}

const NUMBER = /^\d{1,2}$/;

function inRange(text: string | undefined, low: number, high: number): number | null {
  if (text === undefined || !NUMBER.test(text)) return null;
  const value = Number(text);
  return value >= low && value <= high ? value : null;
}

/** The preset a cron text is, or `cron` when it is none of them (the form's starting point). */
export function presetOf(expression: string): SchedulePreset {
  const fields = expression.trim().split(/\s+/);
  const custom: SchedulePreset = { kind: "cron", expression: expression.trim() };
  if (fields.length !== 5) return custom;
  const [minuteText, hourText, day, month, weekdayText] = fields;
  const minute = inRange(minuteText, 0, 59);
  if (minute === null || day !== "*" || month !== "*") return custom;
  if (hourText === "*" && weekdayText === "*") return { kind: "hourly", minute };
  const hour = inRange(hourText, 0, 23);
  if (hour === null) return custom;
  if (weekdayText === "*") return { kind: "daily", hour, minute };
  // 7 is Sunday too in cron; the form names days 0–6.
  const weekday = inRange(weekdayText, 0, 7);
  if (weekday === null) return custom;
  return { kind: "weekly", weekday: weekday % 7, hour, minute };
}

const FIELD = /^[0-9A-Za-z*?/,#-]+$/;

/**
 * Why a cron text cannot be a schedule, as a key of the form's messages, or null when it looks
 * like one; the server checks the rest (ranges, names) and its sentence is shown as it is.
 */
export function cronProblem(expression: string): "cronEmpty" | "cronFields" | "cronChars" | null {
  const trimmed = expression.trim();
  if (trimmed === "") return "cronEmpty";
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return "cronFields";
  if (!fields.every((field) => FIELD.test(field))) return "cronChars";
  return null;
}

/** "09:05": a time of day as the list shows it. */
export function clockTime(hour: number, minute: number): string {
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/** The weekday's name in `locale` (0 = Sunday). */
export function weekdayName(weekday: number, locale: string): string {
  // 2023-01-01 was a Sunday; noon UTC keeps the date the same in every zone.
  const date = new Date(Date.UTC(2023, 0, 1 + weekday, 12));
  return new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(date);
}

/** The IANA zones the browser knows, UTC first; the browser's own zone is among them. */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  const local = browserTimeZone();
  const all = new Set(["UTC", local, ...zones]);
  return [...all];
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** A time stamp in the task's zone, e.g. "3 Dec 2026, 09:00". */
export function formatInZone(iso: string, timeZone: string | null, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(locale, {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: timeZone ?? "UTC",
    }).format(date);
  } catch {
    return date.toISOString();
  }
}
