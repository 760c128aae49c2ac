import type { Task } from "../../core/async/task.js";
import { cancellationOf } from "../../core/async/task.js";
import { CancelledError, isCancelledError } from "../../core/errors.js";

/**
 * Wait for a run's finalizer without letting host cancellation reach it.
 *
 * Host cancellations received meanwhile are absorbed; only the first one is remembered (the
 * AbortSignal keeps the first reason). When the finalizer ends:
 * - host cancelled, finalizer succeeded → throw the first host cancellation;
 * - host cancelled, finalizer failed with E → throw the first host cancellation with `cause` E;
 * - host not cancelled → return the finalizer's result or throw its error. A cancellation raised
 *   inside the finalizer is rethrown as a fresh `CancelledError` and is never recorded as a host
 *   cancellation.
 */
export async function drainRunFinalization<T>(finalizer: Task<T>, host: AbortSignal): Promise<T> {
  let failed = false;
  let failure: unknown;
  let result: T | undefined;
  try {
    result = await finalizer.promise;
  } catch (error) {
    failed = true;
    failure = error;
  }
  if (host.aborted) {
    const first = cancellationOf(host);
    if (failed) throw new CancelledError(first.message, { cause: failure });
    throw first;
  }
  if (failed) {
    if (isCancelledError(failure)) throw new CancelledError(failure.message, { cause: failure });
    throw failure;
  }
  return result as T;
}
