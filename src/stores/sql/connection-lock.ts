/**
 * A FIFO lock whose acquire and release are separate calls, the shape Kysely's driver interface
 * needs (`acquireConnection` / `releaseConnection`); core's `Mutex` only offers `runExclusive`.
 */
export class ConnectionLock {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with a release function once every earlier holder has released. */
  async lock(): Promise<() => void> {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => held);
    await previous;
    return release;
  }
}
