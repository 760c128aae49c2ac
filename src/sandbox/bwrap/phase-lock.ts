/**
 * Lets any number of callers of one phase run together, never two phases at once, first come
 * first served (a waiting phase is not overtaken by later arrivals of the running one).
 *
 * Why: the bubblewrap sandbox does file operations on the host side, through the same folders its
 * processes can write. While a sandboxed process runs it could swap a folder for a symlink between
 * our check and our use; with "exec" and "files" as phases, host-side file work only happens when
 * no sandboxed process exists (everything in a bwrap PID namespace dies with its command).
 */
export class PhaseLock<P extends string> {
  private current: P | null = null;
  private active = 0;
  private readonly queue: Array<{ phase: P; admit: () => void }> = [];

  async run<T>(phase: P, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.enter(phase, signal);
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  private enter(phase: P, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.queue.length === 0 && (this.current === null || this.current === phase)) {
      this.current = phase;
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal?.reason);
        // Leaving the queue may unblock callers of the running phase queued behind us.
        if (this.active === 0) this.admitNext();
      };
      const waiter = {
        phase,
        admit: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      this.queue.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private leave(): void {
    this.active -= 1;
    if (this.active === 0) {
      this.current = null;
      this.admitNext();
    }
  }

  /** Admits the head of the queue and every waiter right behind it with the same phase. */
  private admitNext(): void {
    const head = this.queue[0];
    if (!head) return;
    this.current = head.phase;
    while (this.queue[0]?.phase === head.phase) {
      const waiter = this.queue.shift();
      if (!waiter) break;
      this.active += 1;
      waiter.admit();
    }
  }
}
