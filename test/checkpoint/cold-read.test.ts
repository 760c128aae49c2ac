/**
 * A long thread read by a saver that has never seen it, with caches far too small to hold it
 * (as after a restart, or on another process): list-edit chains are walked from the database in
 * batches, evicted cache entries are fetched again, and every checkpoint still reads back exactly
 * what was put — appends, dropped heads (summarization), edits in place and a rollback-like
 * return to an older list included.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { checkpointBackends } from "./backends.js";
import { integrityProblems } from "./checkpoint-tables.js";
import { messagesAt, type PutResult, putStep } from "./direct-puts.js";

const STEPS = 300;
const backends = await checkpointBackends("checkpoint_cold_read");

/** The list at each step: mostly appends, sometimes a dropped head, an edit or a step back. */
function listHistory(): string[][] {
  const lists: string[][] = [];
  let current: string[] = [];
  for (let step = 0; step < STEPS; step++) {
    const next = [...current, `m${step}`];
    if (step % 37 === 0 && next.length > 5) next.splice(0, 3);
    if (step % 23 === 0 && next.length > 2) next[Math.floor(next.length / 2)] = `edit${step}`;
    if (step % 97 === 0 && lists.length > 10) {
      current = [...(lists[lists.length - 10] ?? [])];
    } else {
      current = next;
    }
    lists.push(current);
  }
  return lists;
}

describe.each(backends)("cold reads of a long thread ($name)", (backend) => {
  let database: SqlDatabase | undefined;

  afterEach(async () => {
    await database?.close();
  });

  it("reads every checkpoint back with empty, tiny caches", async () => {
    database = await openSqlDatabase(backend.url());
    const thread = `${backend.name}-cold-${Date.now()}`;
    const writer = new SqlCheckpointSaver(database);
    const lists = listHistory();
    const puts: PutResult[] = [];
    let parent: PutResult | undefined;
    for (const [step, messages] of lists.entries()) {
      parent = await putStep(writer, thread, parent, { messages, counter: step });
      puts.push(parent);
    }

    const tiny = { cachedRefs: 64, cachedSegments: 16, cachedElementBytes: 512 };
    const head = await new SqlCheckpointSaver(database, tiny).getTuple({
      configurable: { thread_id: thread },
    });
    expect(head?.checkpoint.channel_values.messages).toEqual(lists[lists.length - 1]);

    const lister = new SqlCheckpointSaver(database, tiny);
    const listed: unknown[] = [];
    for await (const tuple of lister.list({ configurable: { thread_id: thread } })) {
      listed.push(tuple.checkpoint.channel_values.messages);
    }
    expect(listed).toEqual([...lists].reverse());

    // Random access in no particular order, each from a fresh saver.
    for (const step of [5, 299, 0, 200, 97, 98, 250]) {
      const reader = new SqlCheckpointSaver(database, tiny);
      const checkpointId = puts[step]?.checkpointId ?? "";
      expect(await messagesAt(reader, thread, checkpointId)).toEqual(lists[step]);
    }
    expect(await integrityProblems(database)).toEqual([]);
  }, 120_000);
});
