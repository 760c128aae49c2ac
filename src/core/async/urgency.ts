import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Marks work a client is waiting on right now (a run's admission: the SSE `metadata` frame waits
 * for it), so a shared, serialized resource — the one SQLite connection — can serve it before
 * queued background work (journal batches, checkpoints, finalizers). Only a hint: a resource that
 * ignores it stays correct.
 *
 * The mark follows the async context of the marked call only: `await runUrgent(fn)` resumes the
 * caller in its own (unmarked) context, so whatever the caller starts afterwards — the run's
 * worker — is not urgent.
 */
const urgentContext = new AsyncLocalStorage<true>();

export function runUrgent<T>(fn: () => Promise<T>): Promise<T> {
  return urgentContext.run(true, fn);
}

/** Whether the current async context is inside `runUrgent`. */
export function isUrgent(): boolean {
  return urgentContext.getStore() === true;
}
