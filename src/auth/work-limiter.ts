/**
 * At most `limit` tasks at a time; the rest wait in FIFO order. Password hashing runs on libuv's
 * thread pool, which file IO shares (4 threads by default): capping concurrent hashes keeps a
 * burst of logins from stalling every file read of the process.
 */
export class WorkLimiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays counted.
      if (next) next();
      else this.active--;
    }
  }
}
