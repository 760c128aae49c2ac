/** A one-shot flag that async code can wait for (asyncio.Event for tests). */
export class Latch {
  private isSetFlag = false;
  private waiters: Array<() => void> = [];

  get isSet(): boolean {
    return this.isSetFlag;
  }

  set(): void {
    this.isSetFlag = true;
    for (const wake of this.waiters.splice(0)) wake();
  }

  clear(): void {
    this.isSetFlag = false;
  }

  wait(): Promise<void> {
    if (this.isSetFlag) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** Let every already-queued microtask and immediate run (asyncio.sleep(0) for tests). */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Await a promise, failing the test with `message` if it has not settled within `ms`. A liveness
 * bound for tests that would otherwise hang, not a timing assertion.
 */
export async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves true if the promise settles within `ms`, false otherwise; never rejects. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return within(
    promise.then(
      () => true,
      () => true,
    ),
    ms,
    "not settled",
  ).catch(() => false);
}
