/**
 * The journal's write pipeline: one batch in flight while the next accumulates, so a run's events
 * leave in few, large batches however fast they are appended.
 */
import { describe, expect, it } from "vitest";
import { MemoryRunEventStore } from "../../stores/memory/run-event-store.js";
import type { NewRunEvent, RunEvent } from "../run-event-store.js";
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
  it("events appended while a batch is in flight leave together as the next batch", async () => {
    const store = new GatedEventStore();
    const journal = journalOver(store);
    store.hold();
    append(journal, 32); // reaches the threshold: the first batch goes out and waits
    append(journal, 100); // each of these is past the threshold too
    expect(store.batchSizes).toEqual([32]);
    store.release();
    await journal.flush();
    expect(store.batchSizes).toEqual([32, 100]);
    expect(journal.drainedCleanly).toBe(true);
    expect(await store.listEvents("thread-1", "run-1", { limit: 1_000 })).toHaveLength(132);
  });

  it("a background flush asked for during a write sends the rest right after it", async () => {
    const store = new GatedEventStore();
    const journal = journalOver(store);
    store.hold();
    append(journal, 32);
    append(journal, 3);
    journal.flushInBackground();
    expect(store.batchSizes).toEqual([32]);
    store.release();
    await journal.flush();
    expect(store.batchSizes).toEqual([32, 3]);
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
});
