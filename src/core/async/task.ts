import { CancelledError, isCancelledError } from "../errors.js";

/**
 * A named unit of async work that can be cancelled: the TypeScript counterpart of an asyncio task.
 *
 * `cancel(reason)` aborts the task's signal with a `CancelledError(reason)`; only the first reason
 * is kept (first-reason-wins), later calls only bump `cancelRequests`. The work observes the
 * signal at its await points. A task whose work ends by throwing a `CancelledError` is
 * "cancelled"; any other throw makes it "failed".
 */
export type TaskState = "running" | "done" | "failed" | "cancelled";

export class Task<T = void> {
  readonly name: string;
  readonly promise: Promise<T>;
  private readonly controller = new AbortController();
  private requests = 0;
  private currentState: TaskState = "running";
  private outcome: { value?: T; error?: unknown } = {};

  constructor(name: string, work: (signal: AbortSignal, task: Task<T>) => Promise<T>) {
    this.name = name;
    // Start on a later tick, like asyncio.create_task: the creator can attach the handle first.
    this.promise = Promise.resolve()
      .then(() => work(this.controller.signal, this))
      .then(
        (value) => {
          this.currentState = "done";
          this.outcome = { value };
          return value;
        },
        (error: unknown) => {
          this.currentState = isCancelledError(error) ? "cancelled" : "failed";
          this.outcome = { error };
          throw error;
        },
      );
    // The handle owns the outcome; callers that never await must not crash the process.
    this.promise.catch(() => undefined);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get state(): TaskState {
    return this.currentState;
  }

  /** How many times cancel() was called while the task was running. */
  get cancelRequests(): number {
    return this.requests;
  }

  /** The first cancellation, if any. */
  get cancelReason(): CancelledError | null {
    const reason: unknown = this.controller.signal.reason;
    return this.controller.signal.aborted && isCancelledError(reason) ? reason : null;
  }

  isDone(): boolean {
    return this.currentState !== "running";
  }

  isCancelled(): boolean {
    return this.currentState === "cancelled";
  }

  /** The error the task ended with (undefined while running or when it succeeded). */
  exception(): unknown {
    return this.outcome.error;
  }

  /** Request cancellation. Returns false when the task has already finished. */
  cancel(reason = "cancelled"): boolean {
    if (this.isDone()) return false;
    this.requests += 1;
    if (!this.controller.signal.aborted) this.controller.abort(new CancelledError(reason));
    return true;
  }

  /** Settles when the task ends, never rejects. */
  async settled(): Promise<TaskState> {
    await this.promise.catch(() => undefined);
    return this.currentState;
  }
}

export function spawnTask<T>(
  name: string,
  work: (signal: AbortSignal, task: Task<T>) => Promise<T>,
): Task<T> {
  return new Task(name, work);
}

/** The signal's reason as a `CancelledError` (a non-Fawn reason is wrapped). */
export function cancellationOf(signal: AbortSignal): CancelledError {
  const reason: unknown = signal.reason;
  if (isCancelledError(reason)) return reason;
  return new CancelledError(reason instanceof Error ? reason.message : "cancelled", {
    cause: reason,
  });
}

/** Throws the signal's cancellation if it was aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancellationOf(signal);
}

/**
 * Await `promise` but stop waiting (throwing the cancellation) as soon as `signal` aborts. The
 * underlying work is not stopped; use it only for awaits that are safe to abandon.
 */
export function raceCancellation<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(cancellationOf(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => undefined);
      reject(cancellationOf(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
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
