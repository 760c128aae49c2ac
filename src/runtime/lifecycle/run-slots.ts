import { CancelledError } from "../../core/errors.js";

/**
 * How many runs of this process may execute their graph at once (`runtime.max_running_runs`).
 * A run past the limit stays `pending` until a slot frees, first come first served; a run
 * cancelled while it waits gives up its place. Under overload this keeps the runs that stream
 * streaming smoothly instead of every run's tokens queueing behind every other run's.
 */
export class RunSlots {
  private running = 0;
  private readonly waiting: Array<{ take(): void }> = [];

  /** `limit` 0: no limit. */
  constructor(private readonly limit: number) {}

  get inUse(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with the slot's release once the run may start; rejects if `signal` aborts first. */
  async acquire(signal: AbortSignal): Promise<() => void> {
    if (this.limit === 0 || (this.running < this.limit && this.waiting.length === 0)) {
      this.running += 1;
      return this.releaser();
    }
    // A release hands its slot straight to the first waiter (`running` does not change).
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        take: () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason ?? new CancelledError("cancelled while waiting to start"));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(waiter);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next !== undefined) next.take();
      else this.running -= 1;
    };
  }
}
