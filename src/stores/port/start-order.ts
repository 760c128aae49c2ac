/**
 * Starts operations in the order they were given, each after its own async preparation (reviving
 * its arguments), without waiting for the one before to finish: a put revived slowly still
 * reaches the saver before the putWrites sent after it, as it would in one thread.
 */
export class StartOrder {
  #tail: Promise<void> = Promise.resolve();

  start<P, R>(prepare: () => Promise<P>, run: (prepared: P) => Promise<R>): Promise<R> {
    const started = this.#tail.then(async () => {
      const prepared = await prepare();
      // Wrapped, so the chain moves on once `run` is called, not once it settles.
      return { settled: run(prepared) };
    });
    this.#tail = started.then(
      () => undefined,
      () => undefined,
    );
    return started.then(({ settled }) => settled);
  }
}
