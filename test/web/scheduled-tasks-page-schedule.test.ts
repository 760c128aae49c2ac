/** The Scheduled tasks form's schedules: presets to cron text and back, and the form's checks. */
import { describe, expect, it } from "vitest";
import {
  clockTime,
  cronOf,
  cronProblem,
  formatInZone,
  presetOf,
  weekdayName,
} from "../../web/src/scheduled-tasks/task-schedule.js";

describe("a scheduled task's schedule", () => {
  it("writes each preset as a five-field cron", () => {
    expect(cronOf({ kind: "hourly", minute: 5 })).toBe("5 * * * *");
    expect(cronOf({ kind: "daily", hour: 7, minute: 30 })).toBe("30 7 * * *");
    expect(cronOf({ kind: "weekly", weekday: 1, hour: 8, minute: 0 })).toBe("0 8 * * 1");
    expect(cronOf({ kind: "cron", expression: "  */2   * * * * * " })).toBe("*/2 * * * * *");
  });

  it("reads a cron back as the preset it is, or as a custom one", () => {
    expect(presetOf("5 * * * *")).toEqual({ kind: "hourly", minute: 5 });
    expect(presetOf("30 7 * * *")).toEqual({ kind: "daily", hour: 7, minute: 30 });
    expect(presetOf("0 8 * * 1")).toEqual({ kind: "weekly", weekday: 1, hour: 8, minute: 0 });
    // Sunday is 0 or 7 in cron.
    expect(presetOf("0 8 * * 7")).toEqual({ kind: "weekly", weekday: 0, hour: 8, minute: 0 });
    for (const custom of [
      "0 9 * * 1-5",
      "*/15 * * * *",
      "0 0 1 * *",
      "*/2 * * * * *",
      "61 * * * *",
    ])
      expect(presetOf(custom)).toEqual({ kind: "cron", expression: custom });
  });

  it("refuses what cannot be a cron before asking the server", () => {
    expect(cronProblem("  ")).toBe("cronEmpty");
    expect(cronProblem("every day")).toBe("cronFields");
    expect(cronProblem("* * * *")).toBe("cronFields");
    expect(cronProblem("0 9 * * 1;")).toBe("cronChars");
    expect(cronProblem("0 9 * * MON-FRI")).toBeNull();
    expect(cronProblem("*/2 * * * * *")).toBeNull();
  });

  it("names times, weekdays and stamps in the task's zone and the page's language", () => {
    expect(clockTime(7, 5)).toBe("07:05");
    expect(weekdayName(1, "en")).toBe("Monday");
    expect(weekdayName(0, "zh-CN")).toBe("星期日");
    expect(formatInZone("2026-12-07T07:00:00Z", "Europe/Berlin", "en")).toContain("8:00");
    expect(formatInZone("not a date", "UTC", "en")).toBe("not a date");
  });
});
