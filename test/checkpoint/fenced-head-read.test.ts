/**
 * A run's fenced view reads the thread's head once for the two reads a run makes before it
 * writes (its rollback point, then the graph's start): the second gets a copy of the first, so
 * editing one leaves the other as read. A write through the view ends the sharing, and the copy
 * is handed out once.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase } from "../../src/stores/sql/database.js";
import { createSqlStores, type SqlStores } from "../../src/stores/sql/stores.js";
import { createOwnedRun, OWNER } from "../conformance/owned-run.js";
import { putStep } from "./direct-puts.js";

const dir = await mkdtemp(join(tmpdir(), "fawn-fenced-head-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a run's fenced view and its thread's head", () => {
  let stores: SqlStores | null = null;
  afterEach(async () => {
    await stores?.close();
    stores = null;
  });

  it("serves the second head read from the first, as a copy, until a write", async () => {
    const opened = createSqlStores(
      await openSqlDatabase(`sqlite:${join(dir, `${randomUUID()}.db`)}`, { countTraffic: true }),
    );
    stores = opened;
    const saver = new SqlCheckpointSaver(opened.database);
    const threadId = `head-${randomUUID()}`;
    const first = await putStep(saver, threadId, undefined, { messages: ["a"], counter: 0 });
    const runId = await createOwnedRun(opened.runs, threadId);
    const view = saver.withFence({ runId, workerId: OWNER });
    const head = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
    const trips = () => opened.database.traffic()?.roundTrips ?? 0;

    const before = trips();
    const rollbackPoint = await view.getTuple(head);
    const afterFirst = trips();
    const graphStart = await view.getTuple({
      configurable: { ...head.configurable, run_id: runId },
    });
    expect(trips()).toBe(afterFirst);
    expect(afterFirst).toBeGreaterThan(before);
    expect(graphStart?.checkpoint).toEqual(rollbackPoint?.checkpoint);
    // The graph edits its checkpoint's versions in place; the rollback point must not change.
    if (graphStart) graphStart.checkpoint.channel_versions.messages = 999;
    expect(rollbackPoint?.checkpoint.channel_versions.messages).toBe(first.version);

    // Handed out once: the next head read goes to the database.
    await view.getTuple(head);
    expect(trips()).toBeGreaterThan(afterFirst);

    // A fresh view: a write between the two reads ends the sharing.
    const next = saver.withFence({ runId, workerId: OWNER });
    await next.getTuple(head);
    const second = await putStep(next, threadId, first, { messages: ["a", "b"], counter: 1 });
    const read = await next.getTuple(head);
    expect(read?.checkpoint.id).toBe(second.checkpointId);
  });
});
