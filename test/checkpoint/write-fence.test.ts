/**
 * The SQL saver's fenced view (`withFence`): one run's checkpoint writes commit only while the
 * run's row names the writer as owner. After a peer's takeover the ex-owner's put, putWrites and
 * deleteThread are refused with OwnershipLostError and change nothing; the new owner's commit.
 */
import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { afterEach, describe, expect, it } from "vitest";
import { OwnershipLostError } from "../../src/core/errors.js";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase } from "../../src/stores/sql/database.js";
import { createSqlStores, type SqlStores } from "../../src/stores/sql/stores.js";
import { createOwnedRun, OWNER, PEER } from "../conformance/owned-run.js";
import { at } from "../conformance/run-store.js";
import { checkpointBackends } from "./backends.js";
import { type PutResult, putStep } from "./direct-puts.js";

const backends = await checkpointBackends("checkpoint_fence");

async function history(saver: BaseCheckpointSaver, threadId: string): Promise<CheckpointTuple[]> {
  const tuples: CheckpointTuple[] = [];
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } })) {
    tuples.push(tuple);
  }
  return tuples;
}

describe.each(backends)("fenced checkpoint writes ($name)", (backend) => {
  const opened: SqlStores[] = [];

  afterEach(async () => {
    for (const stores of opened.splice(0)) await stores.close();
  });

  async function setUp(): Promise<{ stores: SqlStores; saver: SqlCheckpointSaver }> {
    const stores = createSqlStores(await openSqlDatabase(backend.url()));
    opened.push(stores);
    return { stores, saver: new SqlCheckpointSaver(stores.database) };
  }

  it("an owner's writes commit; after a takeover the ex-owner's are refused and change nothing", async () => {
    const { stores, saver } = await setUp();
    const threadId = `fence-${randomUUID()}`;
    const runId = await createOwnedRun(stores.runs, threadId);
    const owner = saver.withFence({ runId, workerId: OWNER });
    const first = await putStep(owner, threadId, undefined, { messages: ["a"], counter: 0 });
    const second = await putStep(owner, threadId, first, { messages: ["a", "b"], counter: 1 });
    expect((await history(saver, threadId)).map((t) => t.checkpoint.id)).toEqual([
      second.checkpointId,
      first.checkpointId,
    ]);

    expect(
      await stores.runs.claimForTakeover(runId, {
        now: at(60),
        graceSeconds: 0,
        error: "gone",
        workerId: PEER,
      }),
    ).toBe(true);
    const before = await history(saver, threadId);
    await expect(
      putStep(owner, threadId, second, { messages: ["a", "b", "c"], counter: 2 }),
    ).rejects.toBeInstanceOf(OwnershipLostError);
    const headConfig = {
      configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: second.checkpointId },
    };
    await expect(
      owner.putWrites(headConfig, [["counter", 99]], "late-task"),
    ).rejects.toBeInstanceOf(OwnershipLostError);
    await expect(owner.deleteThread(threadId)).rejects.toBeInstanceOf(OwnershipLostError);
    expect(await history(saver, threadId)).toEqual(before);

    // The new owner's writes through its own view commit.
    const peer = saver.withFence({ runId, workerId: PEER });
    const third: PutResult = await putStep(peer, threadId, second, {
      messages: ["a", "b", "c"],
      counter: 2,
    });
    expect((await saver.getTuple({ configurable: { thread_id: threadId } }))?.checkpoint.id).toBe(
      third.checkpointId,
    );
  });

  it("a fenced write for a run without a row is refused", async () => {
    const { saver } = await setUp();
    const threadId = `fence-${randomUUID()}`;
    const fenced = saver.withFence({ runId: randomUUID(), workerId: OWNER });
    await expect(
      putStep(fenced, threadId, undefined, { messages: ["a"], counter: 0 }),
    ).rejects.toBeInstanceOf(OwnershipLostError);
    expect(await history(saver, threadId)).toEqual([]);
  });
});
