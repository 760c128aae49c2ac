/**
 * The scheduler over the memory store and a recording run admission: what a firing submits, the
 * polling loop (fake timers, a manual clock), skipped and retried firings, and the end of a
 * schedule.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/core/clock.js";
import { ConflictError } from "../../src/core/errors.js";
import { createLogger } from "../../src/core/logger.js";
import { CronScheduler } from "../../src/gateway/crons/cron-scheduler.js";
import type { RunGateway } from "../../src/gateway/runs/run-gateway.js";
import type { CronRow } from "../../src/ports/cron-store.js";
import { MemoryCronStore } from "../../src/stores/memory/cron-store.js";

const T = "2030-06-01T12:00:00.000Z";
const logger = createLogger({ level: "silent" });

type CreateArgs = Parameters<RunGateway["create"]>;

function cron(overrides: Partial<CronRow> = {}): CronRow {
  return {
    cron_id: "c1",
    assistant_id: "lead_agent",
    thread_id: null,
    user_id: "alice",
    schedule: "0 * * * *",
    timezone: null,
    payload: { input: { messages: [] }, config: { tags: ["x"] } },
    metadata: {},
    on_run_completed: "keep",
    enabled: true,
    end_time: null,
    next_run_date: T,
    created_at: T,
    updated_at: T,
    ...overrides,
  };
}

function setup(create: (...args: CreateArgs) => Promise<unknown>, clock = new ManualClock(T)) {
  const store = new MemoryCronStore();
  const calls: CreateArgs[] = [];
  const runs = {
    create: async (...args: CreateArgs) => {
      calls.push(args);
      return (await create(...args)) as Awaited<ReturnType<RunGateway["create"]>>;
    },
  };
  const scheduler = new CronScheduler({
    store,
    runs,
    owner: "me",
    leaseSeconds: 60,
    maxFiringsPerTick: 10,
    pollIntervalMs: 1000,
    clock,
    logger,
  });
  return { store, calls, scheduler, clock };
}

const created = (runId: string, threadId: string) => async () => ({
  record: { runId },
  threadId,
  threadHold: { release: () => undefined },
});

afterEach(() => {
  vi.useRealTimers();
});

describe("CronScheduler", () => {
  it("submits the payload as the owner, keyed by (cron, tick), on a thread of its own", async () => {
    const { store, calls, scheduler } = setup(created("r1", "t1"));
    await store.create(cron());
    const [outcome] = await scheduler.tick(new Date(T));
    expect(outcome).toMatchObject({ runId: "r1", threadId: "t1", advanced: true });
    const [userId, threadId, body, key] = calls[0] ?? [];
    expect([userId, threadId, key]).toEqual(["alice", null, `cron:c1:${T}`]);
    expect(body).toMatchObject({
      assistant_id: "lead_agent",
      input: { messages: [] },
      on_completion: "keep",
      config: { tags: ["x"], configurable: { thread_id: expect.any(String) } },
    });
    expect((await store.get("c1"))?.next_run_date).toBe("2030-06-01T13:00:00.000Z");
  });

  it("polls with its clock until stopped", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const clock = new ManualClock("2030-06-01T11:59:00.000Z");
    const { store, calls, scheduler } = setup(created("r1", "t1"), clock);
    await store.create(cron());
    scheduler.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(0);
    clock.set(T);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(1);
    await scheduler.stop();
    clock.set("2030-06-01T13:00:00.000Z");
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(1);
  });

  it("skips a tick whose run is refused, and retries one that failed after its lease", async () => {
    let failure: Error = new ConflictError("thread busy");
    const { store, calls, scheduler } = setup(async () => {
      throw failure;
    });
    await store.create(cron({ thread_id: "t1", on_run_completed: null }));
    expect(await scheduler.tick(new Date(T))).toMatchObject([{ runId: null, advanced: true }]);
    const next = "2030-06-01T13:00:00.000Z";
    expect((await store.get("c1"))?.next_run_date).toBe(next);
    failure = new Error("database unreachable");
    expect(await scheduler.tick(new Date(next))).toEqual([]);
    expect((await store.get("c1"))?.next_run_date).toBe(next);
    expect(await scheduler.tick(new Date(Date.parse(next) + 59_000))).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(await scheduler.tick(new Date(Date.parse(next) + 61_000))).toEqual([]);
    expect(calls).toHaveLength(3);
    expect(calls[2]?.[3]).toBe(`cron:c1:${next}`);
  });

  it("ends the schedule at end_time", async () => {
    const { store, scheduler } = setup(created("r1", "t1"));
    await store.create(cron({ end_time: "2030-06-01T12:30:00.000Z" }));
    await scheduler.tick(new Date(T));
    expect((await store.get("c1"))?.next_run_date).toBeNull();
    expect(await scheduler.tick(new Date("2030-06-02T00:00:00.000Z"))).toEqual([]);
  });
});
