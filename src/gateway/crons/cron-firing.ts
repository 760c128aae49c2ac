import { createHash } from "node:crypto";
import { isFawnError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { CronClaim, CronFiringStep, CronStore } from "../../ports/cron-store.js";
import { parseWith } from "../http/validation.js";
import type { RunGateway } from "../runs/run-gateway.js";
import { type RunCreateBody, runCreateBody } from "../runs/run-schemas.js";
import { nextRunAfter } from "./cron-schedule.js";

/** Called after each named step of a firing; tests stop or kill a process there. */
export type CronStepHook = (step: CronFiringStep, claim: CronClaim) => void | Promise<void>;

export interface CronFiringDeps {
  store: CronStore;
  /** Run admission: the same path `POST /threads/{id}/runs` takes. */
  runs: Pick<RunGateway, "create">;
  logger: Logger;
  afterStep?: CronStepHook | undefined;
}

export interface FiringOutcome {
  cronId: string;
  tick: string;
  /** Null when the run was refused (the tick is skipped). */
  runId: string | null;
  /** The run's thread (a stateless cron's is new for the firing). */
  threadId: string | null;
  /** False when the claim was lost before `advance` (another process finishes the firing). */
  advanced: boolean;
}

/**
 * Steps `run_create` then `advance` of a claimed firing. The run's idempotency key is derived
 * from (cron_id, tick), and a stateless cron's thread id too, so a firing retried after a crash
 * replays the run the first attempt created instead of admitting a second one. A run the gateway
 * refuses (4xx: thread gone, busy under `reject`, bad stored payload) skips the tick; anything
 * else (a store outage) leaves the claim to expire and the firing to be retried.
 */
export async function fireClaim(
  deps: CronFiringDeps,
  claim: CronClaim,
  now: Date,
): Promise<FiringOutcome> {
  const { cron, tick } = claim;
  let runId: string | null = null;
  let threadId: string | null = cron.thread_id;
  try {
    const key = `cron:${cron.cron_id}:${tick}`;
    const created = await deps.runs.create(cron.user_id, cron.thread_id, firingBody(claim), key);
    runId = created.record.runId;
    threadId = created.threadId;
  } catch (error) {
    if (!isFawnError(error) || error.status >= 500) throw error;
    deps.logger.warn(
      { cronId: cron.cron_id, tick, code: error.code, reason: error.message },
      "cron firing refused; skipping this tick",
    );
  }
  await deps.afterStep?.("run_create", claim);
  const nextRunDate = nextRunAfter(cron, now, cron.end_time);
  const advanced = await deps.store.completeFiring(claim, {
    runId,
    nextRunDate,
    now: now.toISOString(),
  });
  await deps.afterStep?.("advance", claim);
  return { cronId: cron.cron_id, tick, runId, threadId, advanced };
}

/** The stored payload as a run body, for the cron's assistant (and, stateless, its own thread). */
function firingBody(claim: CronClaim): RunCreateBody {
  const { cron } = claim;
  const body = parseWith(
    runCreateBody,
    { ...cron.payload, assistant_id: cron.assistant_id },
    "body",
  );
  if (cron.thread_id !== null) return body;
  return {
    ...body,
    config: {
      ...body.config,
      configurable: { ...body.config?.configurable, thread_id: firingThreadId(claim) },
    },
    on_completion: cron.on_run_completed ?? "delete",
  };
}

/** A UUID-shaped id fixed by (cron_id, tick): every attempt of one firing names one thread. */
function firingThreadId(claim: CronClaim): string {
  const hex = createHash("sha256").update(`cron:${claim.cron.cron_id}:${claim.tick}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
