import { describeError, isOwnershipLostError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { NewRunEvent, RunEventStore } from "../../ports/run-event-store.js";
import type { WriteFence } from "../../ports/write-fence.js";

/** What a journal writes through: a run event store's batch write (or one served from a port). */
export type JournalEventStore = Pick<RunEventStore, "putBatch">;

/** Batches out at once: one being written, the next ready behind it (see `startWrite`). */
const MAX_IN_FLIGHT = 2;

export interface EventBatchWriterOptions {
  eventStore: JournalEventStore;
  logger: Logger;
  /** Buffered events that trigger a background write. */
  flushThreshold: number;
  /** Every batch is written under this fence (the run's owner, see `WriteFence`). */
  fence: WriteFence | undefined;
  /** Called once when the store refused a batch for the fence: the run belongs to a peer now. */
  onFenced: (reason: string) => void;
}

/**
 * The journal's write pipeline: buffers serialized events and hands them to the store in
 * batches, in order, at most `MAX_IN_FLIGHT` at once.
 *
 * Guarantees: a batch whose write threw is never replayed (it may have committed), and its loss is
 * remembered (`clean` turns false); once the store refused a batch for the fence nothing more is
 * written.
 */
export class EventBatchWriter {
  private readonly eventStore: JournalEventStore;
  private readonly logger: Logger;
  private readonly flushThreshold: number;
  private readonly fence: WriteFence | undefined;
  private readonly onFenced: (reason: string) => void;
  /** A batch was refused for the fence: nothing more is written, the buffer is dropped. */
  private refused = false;
  private buffer: NewRunEvent[] = [];
  /**
   * Batches handed to the store and not settled yet, oldest first: at most `MAX_IN_FLIGHT`, one
   * being written and the next waiting behind it (the store writes them in hand-over order); the
   * one after that accumulates in `buffer` meanwhile.
   */
  private readonly inFlight: Array<Promise<void>> = [];
  /** Events in each batch of `inFlight`, same order. */
  private readonly inFlightSizes: number[] = [];
  /** A background flush was asked for while no write could start: write the rest after one. */
  private drainRequested = false;
  private unclean = false;

  constructor(options: EventBatchWriterOptions) {
    this.eventStore = options.eventStore;
    this.logger = options.logger;
    this.flushThreshold = options.flushThreshold;
    this.fence = options.fence;
    this.onFenced = options.onFenced;
  }

  /** Every batch so far landed, and nothing is buffered or out. */
  get clean(): boolean {
    return !this.unclean && this.buffer.length === 0 && this.inFlight.length === 0;
  }

  get fenced(): boolean {
    return this.refused;
  }

  /** Buffer one event; a buffer at the threshold leaves in the background. */
  push(event: NewRunEvent): void {
    if (this.refused) return;
    this.buffer.push(event);
    if (this.writeDue) this.startWrite();
  }

  /** Drop what was never handed to the store (a fenced run may write nothing more). */
  discardBuffered(): void {
    this.buffer = [];
  }

  private get canStartWrite(): boolean {
    return this.inFlight.length < MAX_IN_FLIGHT;
  }

  /**
   * Whether the buffer leaves now: a slot is free and the buffer reached the threshold — and,
   * behind a batch being written, that batch's size: a small batch handed over behind a large one
   * would pay a transaction of its own for little, and the next lands as one anyway.
   */
  private get writeDue(): boolean {
    if (!this.canStartWrite || this.buffer.length === 0) return false;
    if (this.drainRequested) return true;
    return this.buffer.length >= Math.max(this.flushThreshold, this.inFlightSizes[0] ?? 0);
  }

  /**
   * Write everything buffered so far, and whatever is appended meanwhile, in batches, in order.
   * Rejects if a batch written while it waited failed.
   */
  async flush(): Promise<void> {
    let failure: { error: unknown } | null = null;
    while (this.inFlight.length > 0 || this.buffer.length > 0) {
      if (this.buffer.length > 0 && this.canStartWrite) this.startWrite();
      // The oldest first: every batch out while this waits is awaited, so none fails unseen.
      try {
        await this.inFlight[0];
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== null) throw failure.error;
  }

  /**
   * Pipelining: a batch is handed to the store while the one before it is still being written,
   * so the store prepares it meanwhile and starts it the moment the other lands; events appended
   * while both are out leave together as the next batch once one lands (at the threshold, or at
   * once after a requested flush), not as one small batch per append.
   */
  private startWrite(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    this.drainRequested = false;
    const write: Promise<void> = this.writeBatch(batch).finally(() => {
      const index = this.inFlight.indexOf(write);
      this.inFlight.splice(index, 1);
      this.inFlightSizes.splice(index, 1);
      if (this.writeDue) this.startWrite();
    });
    // A background write's failure is recorded (`unclean`); flush() callers see it too.
    write.catch(() => undefined);
    this.inFlight.push(write);
    this.inFlightSizes.push(batch.length);
    return write;
  }

  private async writeBatch(batch: NewRunEvent[]): Promise<void> {
    if (this.refused) {
      this.unclean = true;
      return;
    }
    try {
      await this.eventStore.putBatch(batch, this.fence ? { fence: this.fence } : {});
    } catch (error) {
      if (isOwnershipLostError(error)) {
        // Refused whole: nothing of it committed. Stop writing, and say so once.
        this.unclean = true;
        this.buffer = [];
        if (!this.refused) {
          this.refused = true;
          this.logger.warn({ error: describeError(error) }, "journal fenced: run owned elsewhere");
          this.onFenced(describeError(error));
        }
        return;
      }
      // The write may or may not have committed: never replay it, remember the gap.
      this.unclean = true;
      this.logger.error(
        { error: describeError(error), events: batch.length },
        "journal batch outcome unknown",
      );
      throw error;
    }
  }

  flushInBackground(): void {
    if (this.buffer.length === 0) return;
    if (this.canStartWrite) this.startWrite();
    else this.drainRequested = true;
  }
}
