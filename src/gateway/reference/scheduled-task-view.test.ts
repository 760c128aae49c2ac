import { describe, expect, it } from "vitest";
import type { CronRow } from "../../ports/cron-store.js";
import { toScheduledTask } from "./scheduled-task-view.js";

function cron(fields: Partial<CronRow>): CronRow {
  return {
    cron_id: "c1",
    assistant_id: "lead_agent",
    thread_id: null,
    user_id: "u",
    schedule: "0 9 * * *",
    timezone: null,
    payload: {},
    metadata: {},
    on_run_completed: "delete",
    enabled: true,
    end_time: null,
    next_run_date: "2030-01-01T09:00:00.000Z",
    created_at: "2029-01-01T00:00:00.000Z",
    updated_at: "2029-01-02T00:00:00.000Z",
    ...fields,
  };
}

describe("toScheduledTask", () => {
  it("takes the prompt from the last user message and the title from metadata", () => {
    const task = toScheduledTask(
      cron({
        thread_id: "t1",
        payload: {
          input: {
            messages: [
              { role: "user", content: "first" },
              { type: "human", content: [{ type: "text", text: "Check " }, { text: "mail" }] },
              { role: "assistant", content: "ok" },
            ],
          },
        },
        metadata: { name: "Mail check" },
      }),
    );
    expect(task).toMatchObject({
      id: "c1",
      thread_id: "t1",
      context_mode: "reuse_thread",
      prompt: "Check mail",
      title: "Mail check",
      schedule_type: "cron",
      schedule_spec: { cron: "0 9 * * *" },
      timezone: "UTC",
      status: "enabled",
      next_run_at: "2030-01-01T09:00:00.000Z",
    });
  });

  it("falls back to the prompt's first line, then to the schedule", () => {
    const long = "y".repeat(100);
    const fromPrompt = toScheduledTask(
      cron({ payload: { input: { messages: [{ role: "user", content: `${long}\nmore` }] } } }),
    );
    expect(fromPrompt.title).toBe(`${"y".repeat(80)}…`);
    expect(fromPrompt.context_mode).toBe("fresh_thread_per_run");
    const bare = toScheduledTask(cron({ payload: { input: "not messages" } }));
    expect(bare).toMatchObject({ title: "Scheduled run (0 9 * * *)", prompt: "" });
  });

  it("reads paused and completed from the cron's state", () => {
    expect(toScheduledTask(cron({ enabled: false })).status).toBe("paused");
    expect(toScheduledTask(cron({ next_run_date: null })).status).toBe("completed");
    expect(toScheduledTask(cron({ timezone: "Asia/Tokyo" })).timezone).toBe("Asia/Tokyo");
  });
});
