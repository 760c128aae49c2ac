import type { StreamItem, StreamWatch, SubscribeOptions, WatchItem } from "./stream-bridge.js";

/**
 * `StreamBridge.watch` for a bridge whose reads are asynchronous (Redis): the items of its
 * `subscribe`, pulled one at a time while resumed and handed to `onItem` as each read returns.
 * Paused, it stops pulling: an item whose read was already under way waits here, the rest in the
 * bridge. An iteration that ends without `end` or `gap` is `dropped`; one that throws is `failed`.
 * Closing (or the signal aborting) aborts the subscription's own signal, which cuts a blocking
 * read short, and hands nothing more over.
 */
export function watchFromSubscribe(
  subscribe: (options: SubscribeOptions) => AsyncIterable<StreamItem>,
  options: SubscribeOptions,
  onItem: (item: WatchItem) => void,
): StreamWatch {
  return new PulledWatch(subscribe, options, onItem);
}

class PulledWatch implements StreamWatch {
  private paused = true;
  private closed = false;
  /** Set while the read loop runs (a `next()` may be pending): `resume` starts no second one. */
  private reading = false;
  /** An item read while the consumer paused, handed over first on `resume`. */
  private held: StreamItem | null = null;
  private iterator: AsyncIterator<StreamItem> | null = null;
  private readonly stopped = new AbortController();
  private readonly onAbort = (): void => this.close();

  constructor(
    private readonly subscribe: (options: SubscribeOptions) => AsyncIterable<StreamItem>,
    private readonly options: SubscribeOptions,
    private readonly onItem: (item: WatchItem) => void,
  ) {
    if (options.signal?.aborted) this.close();
    else options.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  resume(): void {
    if (this.closed) return;
    this.paused = false;
    const held = this.held;
    this.held = null;
    // A heartbeat read before the pause is stale: the consumer was busy, not idle.
    if (held && held.kind !== "heartbeat") this.hand(held);
    if (!this.reading && !this.paused && !this.closed) void this.read();
  }

  pause(): void {
    this.paused = true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.held = null;
    this.options.signal?.removeEventListener("abort", this.onAbort);
    this.stopped.abort();
    // Runs the subscription's `finally` (its connection goes back) once any pending read settles.
    void this.iterator?.return?.().catch(() => undefined);
  }

  private async read(): Promise<void> {
    this.reading = true;
    try {
      this.iterator ??= this.subscribe({ ...this.options, signal: this.stopped.signal })[
        Symbol.asyncIterator
      ]();
      while (!this.paused && !this.closed) {
        const next = await this.iterator.next();
        if (this.closed) return;
        if (next.done === true) {
          this.close();
          this.onItem({ kind: "dropped" });
          return;
        }
        if (this.paused) {
          this.held = next.value;
          return;
        }
        this.hand(next.value);
      }
    } catch (error) {
      if (this.closed) return;
      this.close();
      this.onItem({ kind: "failed", error });
    } finally {
      this.reading = false;
    }
  }

  private hand(item: StreamItem): void {
    // `end` and `gap` are the last items of a subscription.
    if (item.kind === "end" || item.kind === "gap") this.close();
    this.onItem(item);
  }
}
