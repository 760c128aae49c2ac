import { addSeconds } from "../../core/clock.js";
import {
  ConflictError,
  FawnError,
  IdempotencyMismatchError,
  UnsupportedStrategyError,
} from "../../core/errors.js";
import { newRunId } from "../../core/ids.js";
import type { NewThreadOperation } from "../../ports/run-store.js";
import {
  type DisconnectMode,
  MULTITASK_STRATEGIES,
  type MultitaskStrategy,
  type OperationKind,
  type RunInvocation,
  type RunRow,
} from "../../ports/run-types.js";
import type { RunManager } from "../run-manager.js";
import { RunRecord } from "../run-record.js";
import { settle } from "./terminal-commit.js";

/** A request to run on a thread (or to reserve it for a thread operation), as admission takes it. */
export interface RunRequest {
  /** What the run executes, stored as the row's `kwargs`; none for a thread operation. */
  invocation?: RunInvocation;
  assistantId?: string | null;
  userId?: string | null;
  onDisconnect?: DisconnectMode;
  metadata?: Record<string, unknown>;
  multitaskStrategy?: MultitaskStrategy;
  modelName?: string | null;
  idempotencyKey?: string | null;
  operationKind?: OperationKind;
  runId?: string;
}

const CANCELLED_BY_NEWER_RUN = "Cancelled by newer run";

/**
 * Admit a run on a thread under its multitask strategy: an idempotent replay returns the first
 * admission, `reject` refuses a busy thread, `interrupt`/`rollback` supersede the thread's active
 * runs, `enqueue` queues behind them. See docs/ARCHITECTURE.md "Admission".
 */
export async function admitRun(
  m: RunManager,
  threadId: string,
  request: RunRequest,
): Promise<RunRecord> {
  const strategy = request.multitaskStrategy ?? "reject";
  if (!MULTITASK_STRATEGIES.includes(strategy))
    throw new UnsupportedStrategyError(String(strategy));
  const superseded: RunRecord[] = [];
  const record = await m.exclusive(async () => {
    const reused = findIdempotentLocal(m, threadId, request);
    if (reused) return reused;
    if (m.refusesAdmission) {
      throw new FawnError(
        "server_draining",
        "The server is shutting down and admits no new runs; send the request to another one.",
      );
    }
    const inflight = m.localInflight(threadId);
    if (strategy === "reject" && inflight.length > 0) {
      throw new ConflictError(
        `Thread ${threadId} already has an active run; wait for it or cancel it.`,
      );
    }
    if (
      (strategy === "interrupt" || strategy === "rollback") &&
      inflight.some((r) => r.operationKind !== "run")
    ) {
      throw new ConflictError(
        `Thread ${threadId} has an active internal operation; retry shortly.`,
      );
    }
    const now = m.clock.now();
    const operation: NewThreadOperation = {
      run_id: request.runId ?? newRunId(),
      thread_id: threadId,
      assistant_id: request.assistantId ?? null,
      user_id: request.userId ?? null,
      operation_kind: request.operationKind ?? "run",
      idempotency_key: request.idempotencyKey ?? null,
      model_name: request.modelName ?? null,
      multitask_strategy: strategy,
      on_disconnect: request.onDisconnect ?? "continue",
      metadata: request.metadata ?? {},
      kwargs: request.invocation ?? {},
      owner_worker_id: m.workerId,
      lease_expires_at: m.heartbeatEnabled
        ? addSeconds(now, m.ownership.leaseSeconds).toISOString()
        : null,
      created_at: now.toISOString(),
    };
    const { row } = await m.store.createThreadOperation(operation, {
      strategy,
      workerId: m.workerId,
      now: m.nowIso(),
      graceSeconds: m.ownership.graceSeconds,
    });
    if (row.run_id !== operation.run_id) return adoptIdempotentRow(m, row, threadId, request);
    const admitted = new RunRecord(row);
    m.register(admitted);
    if (strategy === "interrupt" || strategy === "rollback") {
      for (const previous of inflight) {
        // Already finalizing (or fenced, which only a finalizing run still is): left alone.
        if (previous.finalizing || !previous.isActive()) continue;
        supersede(m, previous, strategy);
        superseded.push(previous);
      }
    }
    return admitted;
  });
  for (const previous of superseded) {
    await m.persistStatus(previous, "interrupted", { error: CANCELLED_BY_NEWER_RUN });
  }
  return record;
}

/** Interrupt an older run of the thread in favour of the one just admitted. */
function supersede(m: RunManager, previous: RunRecord, strategy: "interrupt" | "rollback"): void {
  previous.abortAction = strategy;
  previous.raiseAbort(CANCELLED_BY_NEWER_RUN);
  m.holdFinalizingWhileLive(previous);
  previous.task?.cancel(CANCELLED_BY_NEWER_RUN);
  settle(previous, "interrupted", { error: CANCELLED_BY_NEWER_RUN });
}

function findIdempotentLocal(
  m: RunManager,
  threadId: string,
  request: RunRequest,
): RunRecord | null {
  const key = request.idempotencyKey;
  if (!key) return null;
  for (const record of m.localRecords()) {
    if (record.idempotencyKey !== key) continue;
    if (record.threadId !== threadId || record.userId !== (request.userId ?? null)) {
      throw new IdempotencyMismatchError(key);
    }
    record.idempotencyReused = true;
    return record;
  }
  return null;
}

function adoptIdempotentRow(
  m: RunManager,
  row: RunRow,
  threadId: string,
  request: RunRequest,
): RunRecord {
  const key = request.idempotencyKey ?? "";
  if (row.thread_id !== threadId || row.user_id !== (request.userId ?? null)) {
    throw new IdempotencyMismatchError(key);
  }
  const record = m.getLocal(row.run_id) ?? m.observe(row);
  record.idempotencyReused = true;
  return record;
}

/** A queued run became the thread's active run (after `promoteNextQueued`). */
export function markPromoted(m: RunManager, row: RunRow): RunRecord {
  const record = m.getLocal(row.run_id) ?? new RunRecord(row);
  if (record.phase.kind === "queued") record.transition({ kind: "pending" });
  m.register(record);
  return record;
}

/** Make the thread's oldest queued run its active run, if the thread is free. */
export async function promoteNextQueued(
  m: RunManager,
  threadId: string,
): Promise<RunRecord | null> {
  const row = await m.store.promoteNextQueued(threadId);
  return row ? markPromoted(m, row) : null;
}
