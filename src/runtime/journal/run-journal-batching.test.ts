/**
 * The journal's write pipeline: one batch being written, the next handed over behind it, and the
 * one after that accumulating, so a run's events leave in few, large batches however fast they
 * are appended, and the store always has the next batch ready.
 */
import { describe, expect, it } from "vitest";
import type { NewRunEvent, RunEvent } from "../../ports/run-event-store.js";
import { MemoryRunEventStore } from "../../stores/memory/run-event-store.js";
import { RunJournal } from "./run-journal.js";

/** A memory store whose writes wait at a gate the test opens, and which records batch sizes. */
class GatedEventStore extends MemoryRunEventStore {
  readonly batchSizes: number[] = [];
  failNext = false;
  private gate: Promise<void> = Promise.resolve();
  private releaseGate: () => void = () => undefined;

  hold(): void {
    this.gate = new Promise<void>((resolve) => {
      this.releaseGate = resolve;
    });
  }

  release(): void {
    this.releaseGate();
  }

  override async putBatch(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    this.batchSizes.push(events.length);
    await this.gate;
    if (this.failNext) {
      this.failNext = false;
      throw new Error("injected batch failure");
    }
    return super.putBatch(events);
  }
}

function journalOver(store: GatedEventStore): RunJournal {
  return new RunJournal({
    eventStore: store,
    threadId: "thread-1",
    runId: "run-1",
    userId: null,
    flushThreshold: 32,
  });
}

const append = (journal: RunJournal, count: number): void => {
  for (let index = 0; index < count; index++) {
    journal.append("llm.ai.response", { type: "ai", content: `token ${index}` });
  }
};

describe("RunJournal write pipeline", () => {
  it("events appended while two batches are out leave together as the next batch", async () => {
    const store = new GatedEventStore();
    const journal = journalOver(store);
    store.hold();
    append(journal, 32); // reaches the threshold: the first batch goes out and waits
    append(journal, 32); // the second is handed over behind it
    append(journal, 100); // each of these is past the threshold too, but two are out
    expect(store.batchSizes).toEqual([32, 32]);
    store.release();
    await journal.flush();
    expect(store.batchSizes).toEqual([32, 32, 100]);
    expect(journal.drainedCleanly).toBe(true);
    const stored = await store.listEvents("thread-1", "run-1", { limit: 1_000 });
    // Written in the order they were appended, seqs contiguous.
    expect(stored.map((event) => event.seq)).toEqual(Array.from({ length: 164 }, (_, i) => i + 1));
    expect(stored.map((event) => (event.content as { content: string }).content)).toEqual([
      ...Array.from({ length: 32 }, (_, i) => `token ${i}`),
      ...Array.from({ length: 32 }, (_, i) => `token ${i}`),
      ...Array.from({ length: 100 }, (_, i) => `token ${i}`),
    ]);
  });

  it("a batch waits behind a larger one until it is as large (no small transactions)", async () => {
    const store = new GatedEventStore();
    const journal = journalOver(store);
    store.hold();
    append(journal, 64); // two batches of 32 out
    append(journal, 200);
    store.release();
    store.hold(); // what goes out next waits
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.batchSizes).toEqual([32, 32, 200]); // the 200 left as the first two landed
    append(journal, 150); // past the threshold, but smaller than the batch being written
    expect(store.batchSizes).toEqual([32, 32, 200]);
    append(journal, 50);
    expect(store.batchSizes).toEqual([32, 32, 200, 200]);
    store.release();
    await journal.flush();
    expect(journal.drainedCleanly).toBe(true);
    const stored = await store.listEvents("thread-1", "run-1", { limit: 1_000 });
    expect(stored.map((event) => event.seq)).toEqual(Array.from({ length: 464 }, (_, i) => i + 1));
  });

  it("a background flush asked for while two batches are out sends the rest right after one", async () => {
    const store = new GatedEventStore();
    const journal = journalOver(store);
    store.hold();
    append(journal, 64);
    append(journal, 3);
    journal.flushInBackground();
    expect(store.batchSizes).toEqual([32, 32]);
    store.release();
    await journal.flush();
    expect(store.batchSizes).toEqual([32, 32, 3]);
  });

  it("a background flush with room for a batch sends the rest at once", async () => {
    const store = new GatedEventStore();
    const journal = journalOver(store);
    store.hold();
    append(journal, 32);
    append(journal, 3);
    journal.flushInBackground();
    expect(store.batchSizes).toEqual([32, 3]);
    store.release();
    await journal.flush();
    expect(journal.drainedCleanly).toBe(true);
  });

  it("flush rejects when a batch it waited for failed, writes the rest, and the journal is unclean", async () => {
    const store = new GatedEventStore();
    const journal = journalOver(store);
    store.hold();
    store.failNext = true;
    append(journal, 32);
    append(journal, 5);
    const flushed = journal.flush();
    store.release();
    await expect(flushed).rejects.toThrow("injected batch failure");
    expect(store.batchSizes).toEqual([32, 5]);
    expect(await store.listEvents("thread-1", "run-1")).toHaveLength(5);
    expect(journal.drainedCleanly).toBe(false);
  });

  it("a failed batch is never replayed, and the batch behind it is still written once", async () => {
    const store = new GatedEventStore();
    const journal = journalOver(store);
    store.hold();
    store.failNext = true;
    append(journal, 64); // two batches out: the first will fail
    append(journal, 7);
    store.release();
    await expect(journal.close()).rejects.toThrow("injected batch failure");
    expect(store.batchSizes).toEqual([32, 32, 7]);
    const stored = await store.listEvents("thread-1", "run-1", { limit: 1_000 });
    expect(stored.map((event) => event.seq)).toEqual(Array.from({ length: 39 }, (_, i) => i + 1));
    expect(journal.drainedCleanly).toBe(false);
  });
});
