import { randomUUID } from "node:crypto";
import { type Clock, isoNow, systemClock } from "../../core/clock.js";
import { NotFoundError } from "../../core/errors.js";
import type { CronFilter, CronPatch, CronRow, CronStore } from "../../ports/cron-store.js";
import type { ThreadService } from "../threads/thread-service.js";
import { checkSchedule, nextRunAfter } from "./cron-schedule.js";
import type {
  CronCountBody,
  CronCreateBody,
  CronSearchBody,
  CronUpdateBody,
} from "./cron-schemas.js";

/** The fields of a create/update body that describe the schedule, not the run. */
const SCHEDULE_KEYS = ["schedule", "timezone", "end_time", "enabled", "on_run_completed"] as const;

export interface CronServiceDeps {
  store: CronStore;
  threads: Pick<ThreadService, "getOwned">;
  /** Throws (404) for an assistant the user cannot run (not theirs, or no such graph). */
  assistants: { resolveForRun(assistantId: string, userId: string): Promise<unknown> };
  clock?: Clock;
}

/** Cron operations on behalf of one user (create, read, search, update, delete). No HTTP. */
export class CronService {
  private readonly clock: Clock;

  constructor(private readonly deps: CronServiceDeps) {
    this.clock = deps.clock ?? systemClock;
  }

  /** The service's time (its clock), as ISO text. */
  now(): string {
    return isoNow(this.clock);
  }

  /** `threadId` null: a stateless cron (each firing on a new thread). */
  async create(userId: string, threadId: string | null, body: CronCreateBody): Promise<CronRow> {
    await this.deps.assistants.resolveForRun(body.assistant_id, userId);
    if (threadId !== null) await this.deps.threads.getOwned(threadId, userId);
    const schedule = { schedule: body.schedule, timezone: body.timezone ?? null };
    checkSchedule(schedule);
    const now = isoNow(this.clock);
    const endTime = body.end_time ? new Date(body.end_time).toISOString() : null;
    const enabled = body.enabled ?? true;
    const metadata = body.metadata ?? {};
    return this.deps.store.create({
      cron_id: randomUUID(),
      assistant_id: body.assistant_id,
      thread_id: threadId,
      user_id: userId,
      ...schedule,
      payload: runPayload(body),
      metadata,
      on_run_completed: threadId === null ? (body.on_run_completed ?? "delete") : null,
      enabled,
      end_time: endTime,
      next_run_date: nextRunAfter(schedule, this.clock.now(), endTime),
      created_at: now,
      updated_at: now,
    });
  }

  async get(userId: string, cronId: string): Promise<CronRow> {
    const row = await this.deps.store.get(cronId, { userId });
    if (!row) throw cronNotFound(cronId);
    return row;
  }

  search(userId: string, body: CronSearchBody): Promise<CronRow[]> {
    return this.deps.store.search({
      ...filterOf(userId, body),
      ...(body.enabled == null ? {} : { enabled: body.enabled }),
      limit: body.limit ?? 10,
      offset: body.offset ?? 0,
      ...(body.sort_by ? { sortBy: body.sort_by } : {}),
      ...(body.sort_order ? { sortOrder: body.sort_order } : {}),
    });
  }

  count(userId: string, body: CronCountBody): Promise<number> {
    return this.deps.store.count(filterOf(userId, body));
  }

  /**
   * Run fields replace the stored payload's; a changed schedule, zone, end or re-enabling
   * computes the next run again from now.
   */
  async update(userId: string, cronId: string, body: CronUpdateBody): Promise<CronRow> {
    const current = await this.get(userId, cronId);
    const schedule = {
      schedule: body.schedule ?? current.schedule,
      timezone: body.timezone === undefined ? current.timezone : (body.timezone ?? null),
    };
    checkSchedule(schedule);
    const endTime =
      body.end_time === undefined
        ? current.end_time
        : body.end_time === null
          ? null
          : new Date(body.end_time).toISOString();
    const enabled = body.enabled ?? current.enabled;
    const patch: CronPatch = {
      ...schedule,
      end_time: endTime,
      enabled,
      payload: { ...current.payload, ...runPayload(body) },
      ...(body.metadata == null ? {} : { metadata: body.metadata }),
      ...(body.on_run_completed && current.thread_id === null
        ? { on_run_completed: body.on_run_completed }
        : {}),
    };
    const rescheduled =
      schedule.schedule !== current.schedule ||
      schedule.timezone !== current.timezone ||
      endTime !== current.end_time ||
      (enabled && !current.enabled);
    if (rescheduled) patch.next_run_date = nextRunAfter(schedule, this.clock.now(), endTime);
    const updated = await this.deps.store.update(cronId, patch, isoNow(this.clock), { userId });
    if (!updated) throw cronNotFound(cronId);
    return updated;
  }

  async delete(userId: string, cronId: string): Promise<void> {
    if (!(await this.deps.store.delete(cronId, { userId }))) throw cronNotFound(cronId);
  }
}

/** The run-create body each firing submits: the request minus its schedule fields and nulls. */
function runPayload(body: CronCreateBody | CronUpdateBody): Record<string, unknown> {
  const scheduleKeys: ReadonlySet<string> = new Set(SCHEDULE_KEYS);
  return Object.fromEntries(
    Object.entries(body).filter(
      ([key, value]) => !scheduleKeys.has(key) && value !== undefined && value !== null,
    ),
  );
}

function filterOf(userId: string, body: CronCountBody): CronFilter {
  return {
    userId,
    ...(body.assistant_id ? { assistantId: body.assistant_id } : {}),
    ...(body.thread_id ? { threadId: body.thread_id } : {}),
    ...(body.metadata ? { metadata: body.metadata } : {}),
  };
}

export function cronNotFound(cronId: string): NotFoundError {
  return new NotFoundError(`Cron ${cronId} not found.`);
}
