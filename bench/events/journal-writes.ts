import { setImmediate as yieldToLoop } from "node:timers/promises";
import { createLogger } from "../../src/core/logger.js";
import type { NewRunEvent, RunEvent } from "../../src/ports/run-event-store.js";
import { RunJournal } from "../../src/runtime/journal/run-journal.js";
import { openSqlDatabase } from "../../src/stores/sql/database.js";
import { SqlRunEventStore } from "../../src/stores/sql/sql-run-event-store.js";

/** The real SQL event store, remembering each batch the journal handed it (for the raw replay). */
class RecordingEventStore extends SqlRunEventStore {
  readonly batches: NewRunEvent[][] = [];

  override putBatch(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
    // Recorded as handed over (the journal's order, which the store keeps), before the write.
    this.batches.push([...events]);
    return super.putBatch(events);
  }
}

export interface JournalResult {
  events: number;
  seconds: number;
  /** Every batch written, in the order the store received them. */
  batches: NewRunEvent[][];
}

/** A message-sized event body (~300 bytes of JSON), like an AI message the journal records. */
function eventContent(run: number, index: number) {
  return {
    type: "ai",
    id: `msg-${run}-${index}`,
    content: `Event ${index} of run ${run}: ${"lorem ipsum dolor sit amet ".repeat(8)}`,
    tool_calls: [],
    usage_metadata: { input_tokens: 120, output_tokens: 48, total_tokens: 168 },
  };
}

/**
 * `runs` journals (one per run, each on its own thread) on a freshly migrated database append
 * `eventsPerRun` events each, yielding to the event loop after every event the way callbacks
 * arrive during a run, then close (final flush). Time: first append → last batch committed.
 */
export async function journalWrites(
  url: string,
  runs: number,
  eventsPerRun: number,
): Promise<JournalResult> {
  const database = await openSqlDatabase(url);
  const store = new RecordingEventStore(database);
  const logger = createLogger({ level: "silent" });
  try {
    const journals = Array.from(
      { length: runs },
      (_, run) =>
        new RunJournal({
          eventStore: store,
          threadId: `bench-thread-${run}`,
          runId: `bench-run-${run}`,
          userId: null,
          logger,
        }),
    );
    const started = performance.now();
    await Promise.all(
      journals.map(async (journal, run) => {
        for (let index = 0; index < eventsPerRun; index++) {
          journal.append("llm.ai.response", eventContent(run, index));
          await yieldToLoop();
        }
        await journal.close();
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    if (journals.some((journal) => !journal.drainedCleanly)) {
      throw new Error("a journal batch failed; the figure would not count every event");
    }
    return { events: runs * eventsPerRun, seconds, batches: store.batches };
  } finally {
    await database.close();
  }
}
