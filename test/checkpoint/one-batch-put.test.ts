/**
 * SQLite puts without reads: when the saver wrote or read a put's parent it knows the parent's
 * list ids, so the put is one batch (one worker round trip). The batch's guard stands in for the
 * reads it skips: a parent deleted meanwhile makes it write nothing, and the general path then
 * stores the checkpoint whole.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { messagesAt, putStep } from "./direct-puts.js";

const dir = await mkdtemp(join(tmpdir(), "fawn-one-batch-put-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function history(saver: BaseCheckpointSaver, threadId: string): Promise<CheckpointTuple[]> {
  const tuples: CheckpointTuple[] = [];
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } })) {
    tuples.push(tuple);
  }
  return tuples;
}

describe("SQLite: a put whose parent the saver knows is one batch", () => {
  let database: SqlDatabase;
  afterEach(async () => {
    await database?.close();
  });

  async function open(): Promise<SqlDatabase> {
    database = await openSqlDatabase(`sqlite:${join(dir, `${randomUUID()}.db`)}`, {
      countTraffic: true,
    });
    return database;
  }

  /** Worker round trips of one put (its putWrites is taken off). */
  async function roundTripsOf(db: SqlDatabase, put: () => Promise<unknown>): Promise<number> {
    const before = db.traffic()?.roundTrips ?? 0;
    await put();
    // putStep also writes one pending write: one batch.
    return (db.traffic()?.roundTrips ?? 0) - before - 1;
  }

  it("after writing or reading the parent: one round trip; a cold saver reads first", async () => {
    const db = await open();
    const saver = new SqlCheckpointSaver(db);
    const thread = `one-batch-${randomUUID()}`;
    let parent = await putStep(saver, thread, undefined, { messages: ["a"], counter: 0 });
    for (const counter of [1, 2]) {
      const messages = ["a", ..."bc".slice(0, counter)];
      let next = parent;
      expect(
        await roundTripsOf(db, async () => {
          next = await putStep(saver, thread, parent, { messages, counter });
        }),
      ).toBe(1);
      parent = next;
    }
    // A saver that has seen nothing of the thread reads first: the parent's row (BEGIN with it),
    // then its base list.
    const cold = new SqlCheckpointSaver(db);
    let third = parent;
    expect(
      await roundTripsOf(db, async () => {
        third = await putStep(cold, thread, parent, { messages: ["a", "b", "c", "d"], counter: 3 });
      }),
    ).toBe(3);
    // Reading the head teaches a saver the head's list ids: its child is one batch again.
    const reader = new SqlCheckpointSaver(db);
    await reader.getTuple({ configurable: { thread_id: thread } });
    expect(
      await roundTripsOf(db, () =>
        putStep(reader, thread, third, { messages: ["a", "b", "c", "d", "e"], counter: 4 }),
      ),
    ).toBe(1);
    const head = await new SqlCheckpointSaver(db).getTuple({ configurable: { thread_id: thread } });
    expect(head?.checkpoint.channel_values).toEqual({
      messages: ["a", "b", "c", "d", "e"],
      counter: 4,
    });
  });

  it("a parent deleted meanwhile: the batch writes nothing, the general path stores the put whole", async () => {
    const db = await open();
    const saver = new SqlCheckpointSaver(db);
    const thread = `deleted-parent-${randomUUID()}`;
    const first = await putStep(saver, thread, undefined, { messages: ["a", "b"], counter: 0 });
    const second = await putStep(saver, thread, first, { messages: ["a", "b", "c"], counter: 1 });
    // Another saver on the same database deletes the thread; `saver` still knows `second`.
    await new SqlCheckpointSaver(db).deleteThread(thread);
    const third = await putStep(saver, thread, second, {
      messages: ["a", "b", "c", "d"],
      counter: 2,
    });
    const fresh = new SqlCheckpointSaver(db);
    expect((await history(fresh, thread)).map((tuple) => tuple.checkpoint.id)).toEqual([
      third.checkpointId,
    ]);
    expect(await messagesAt(fresh, thread, third.checkpointId)).toEqual(["a", "b", "c", "d"]);
  });
});
