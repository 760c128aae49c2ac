import { DeadlineExceededError } from "../errors.js";

/** Work for `withDeadline`: a promise already running, or a function that observes the deadline. */
export type DeadlineWork<T> = Promise<T> | ((signal: AbortSignal) => Promise<T>);

/**
 * Settles like `work`, or rejects with `DeadlineExceededError` once `ms` have passed. When `work`
 * is a function, its signal is aborted with that same error so the work can stop instead of
 * running on unobserved; a bare promise cannot be stopped, only abandoned.
 */
export function withDeadline<T>(work: DeadlineWork<T>, ms: number, message?: string): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new DeadlineExceededError(
        message ?? `The operation did not finish within ${ms} ms.`,
      );
      controller.abort(error);
      reject(error);
    }, ms);
    let running: Promise<T>;
    try {
      running = typeof work === "function" ? work(controller.signal) : work;
    } catch (error) {
      clearTimeout(timer);
      reject(error);
      return;
    }
    running.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Resolves after `ms`; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
