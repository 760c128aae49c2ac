import { AsyncLocalStorage } from "node:async_hooks";
import { teamsSettings } from "./settings.js";

/** A poll budget or transfer bound ran out. */
export class TimeoutError extends Error {
  override name = "TimeoutError";
}

/**
 * The poll deadline of one worker: a budget that ordinary work observes through `signal`, which
 * aborts when the budget runs out or the worker is cancelled. A transfer lifts it (`suspend`) and
 * puts the remaining budget back afterwards (`resume`).
 */
export class WorkerDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private when: number | null = null;

  constructor(
    budgetMs: number,
    /** Aborts when the worker is cancelled (tick cancellation); transfers observe it too. */
    readonly cancelled: AbortSignal = new AbortController().signal,
  ) {
    this.reschedule(Date.now() + budgetMs);
    if (cancelled.aborted) this.controller.abort(cancelled.reason);
    else cancelled.addEventListener("abort", () => this.controller.abort(cancelled.reason));
  }

  /** What ordinary work under this deadline must observe. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Milliseconds left, 0 once expired; null while lifted. */
  remaining(): number | null {
    return this.when === null ? null : Math.max(0, this.when - Date.now());
  }

  /** Moves the expiry to `when` (epoch ms), or lifts it with null. */
  reschedule(when: number | null): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.when = when;
    if (when === null || this.controller.signal.aborted) return;
    const expire = (): void =>
      this.controller.abort(new TimeoutError("The job's poll budget ran out."));
    const delay = when - Date.now();
    if (delay <= 0) expire();
    else this.timer = setTimeout(expire, delay);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

/** The deadline of the worker running in the current async context. */
export const workerDeadline = new AsyncLocalStorage<WorkerDeadline>();

const NEVER = new AbortController().signal;

/** The signal ordinary work in this context observes (never aborts outside a worker). */
export function pollSignal(): AbortSignal {
  return workerDeadline.getStore()?.signal ?? NEVER;
}

/**
 * Ordinary work under the poll deadline: settles like `work`, or rejects with the deadline's
 * reason once it aborts. A host call cannot be cancelled from here; its late answer is dropped,
 * which is safe because every admission is retried with the same idempotency key.
 */
export function underPoll<T>(work: () => Promise<T>): Promise<T> {
  const signal = pollSignal();
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work().then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Runs `fn` with a fresh poll deadline published for it. */
export async function withWorkerDeadline<T>(
  budgetMs: number,
  cancelled: AbortSignal,
  fn: () => Promise<T>,
): Promise<T> {
  const deadline = new WorkerDeadline(budgetMs, cancelled);
  try {
    return await workerDeadline.run(deadline, fn);
  } finally {
    deadline.dispose();
  }
}

/**
 * One file transfer: lifts the worker's poll deadline, runs `fn` under its own
 * `artifactTransferSeconds` bound with an AbortSignal, and afterwards gives the worker back the
 * budget it had left when the transfer began (counted from the transfer's end). On expiry or
 * worker cancellation the operation is aborted and awaited until it settles before this throws,
 * so no transfer outlives its worker.
 */
export async function transfer<A extends object, T>(
  fn: (args: A & { signal: AbortSignal }) => Promise<T>,
  args: A,
): Promise<T> {
  const deadline = workerDeadline.getStore();
  const remaining = deadline?.remaining() ?? null;
  const cancelled = deadline?.cancelled ?? NEVER;
  if (cancelled.aborted) throw cancelled.reason;
  if (deadline !== undefined && remaining === 0) throw new TimeoutError("No poll budget left.");
  deadline?.reschedule(null);
  const controller = new AbortController();
  const seconds = teamsSettings.artifactTransferSeconds;
  const timer = setTimeout(
    () => controller.abort(new TimeoutError(`The file transfer took longer than ${seconds} s.`)),
    seconds * 1000,
  );
  const onCancel = (): void => controller.abort(cancelled.reason);
  cancelled.addEventListener("abort", onCancel, { once: true });
  try {
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await fn({ ...args, signal: controller.signal }) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    // Settled (drained); an abort decides the outcome whatever the operation answered.
    if (controller.signal.aborted) throw controller.signal.reason;
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  } finally {
    clearTimeout(timer);
    cancelled.removeEventListener("abort", onCancel);
    if (deadline !== undefined && remaining !== null) deadline.reschedule(Date.now() + remaining);
  }
}
