/**
 * A run's savers served over a real MessageChannel (and across a real Worker thread): fenced
 * checkpoint writes refused on the main thread come back as OwnershipLostError, journal batches
 * land in the SQL event store with the content text written on the far side, and closing either
 * end fails what is pending and refuses what comes after.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageChannel, Worker } from "node:worker_threads";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { BaseStore, type Operation, type OperationResults } from "@langchain/langgraph-checkpoint";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  CancelledError,
  isCancelledError,
  isOwnershipLostError,
  StoreError,
} from "../../../src/core/errors.js";
import { SerializedRunEvent } from "../../../src/ports/serialized-run-event.js";
import { runSaversOverPort } from "../../../src/stores/port/run-savers-over-port.js";
import { type RunSavers, serveRunSavers } from "../../../src/stores/port/serve-run-savers.js";
import { SqlCheckpointSaver } from "../../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlDatabase } from "../../../src/stores/sql/database.js";
import { createSqlStores, type SqlStores } from "../../../src/stores/sql/stores.js";
import { putStep } from "../../checkpoint/direct-puts.js";
import { createOwnedRun, OWNER, PEER } from "../../conformance/owned-run.js";
import { at } from "../../conformance/run-store.js";

const dir = await mkdtemp(join(tmpdir(), "fawn-savers-port-"));
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function openStores(): Promise<SqlStores> {
  const stores = createSqlStores(
    await openSqlDatabase(`sqlite:${join(dir, `${randomUUID()}.db`)}`),
  );
  cleanups.push(() => stores.close());
  return stores;
}

/** Serves `savers` on one end of a fresh channel and answers the other end's savers. */
function overChannel(savers: RunSavers) {
  const { port1, port2 } = new MessageChannel();
  const served = serveRunSavers(port1, savers);
  const far = runSaversOverPort(port2);
  cleanups.push(
    () => far.close(),
    () => served.close(),
  );
  return { served, far };
}

/** A running run of `threadId` owned by OWNER, and that run's fenced savers on the main side. */
async function ownedRun(stores: SqlStores, threadId: string) {
  const runId = await createOwnedRun(stores.runs, threadId);
  const fence = { runId, workerId: OWNER };
  const saver = new SqlCheckpointSaver(stores.database);
  const savers: RunSavers = {
    checkpointer: saver.withFence(fence),
    events: { putBatch: (events) => stores.events.putBatch(events, { fence }) },
  };
  const takeOver = () =>
    stores.runs.claimForTakeover(runId, {
      now: at(60),
      graceSeconds: 0,
      error: "gone",
      workerId: PEER,
    });
  return { runId, saver, savers, takeOver };
}

function journalEvent(threadId: string, runId: string, content: unknown): SerializedRunEvent {
  return new SerializedRunEvent({
    thread_id: threadId,
    run_id: runId,
    event_type: "llm.ai.response",
    category: "message",
    content,
    metadata: { caller: "lead_agent" },
    created_at: "2026-01-02T03:04:05.678Z",
    user_id: null,
  });
}

describe("run savers over a MessagePort", () => {
  it("brings a fenced write the main saver refuses back as OwnershipLostError", async () => {
    const stores = await openStores();
    const threadId = `port-${randomUUID()}`;
    const run = await ownedRun(stores, threadId);
    const { far } = overChannel(run.savers);
    const first = await putStep(far.checkpointer, threadId, undefined, {
      messages: ["a"],
      counter: 0,
    });
    expect(
      (await run.saver.getTuple({ configurable: { thread_id: threadId } }))?.checkpoint.id,
    ).toBe(first.checkpointId);

    expect(await run.takeOver()).toBe(true);
    const put = await putStep(far.checkpointer, threadId, first, {
      messages: ["a", "b"],
      counter: 1,
    }).catch((error: unknown) => error);
    expect(isOwnershipLostError(put)).toBe(true);
    const head = {
      configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: first.checkpointId },
    };
    const writes = await far.checkpointer
      .putWrites(head, [["counter", 9]], "late")
      .catch((e: unknown) => e);
    expect(isOwnershipLostError(writes)).toBe(true);
    const deleted = await far.checkpointer.deleteThread(threadId).catch((e: unknown) => e);
    expect(isOwnershipLostError(deleted)).toBe(true);
    const batch = await far.events
      .putBatch([journalEvent(threadId, run.runId, { late: true })])
      .catch((e: unknown) => e);
    expect(isOwnershipLostError(batch)).toBe(true);
  });

  it("lands a journal batch in the SQL event store with the content text written far side", async () => {
    const stores = await openStores();
    const threadId = `port-${randomUUID()}`;
    const run = await ownedRun(stores, threadId);
    const { far } = overChannel(run.savers);
    const message = journalEvent(threadId, run.runId, {
      messages: [new HumanMessage("hello"), new AIMessage({ content: "hi", id: "m1" })],
    });
    const text = journalEvent(threadId, run.runId, "plain words");
    await far.events.putBatch([message, text]);

    const rows = await stores.database.db
      .selectFrom("run_events")
      .select(["seq", "content"])
      .where("thread_id", "=", threadId)
      .orderBy("seq")
      .execute();
    expect(rows.map((row) => row.content)).toEqual([message.contentText(), "plain words"]);
    const listed = await stores.events.listEvents(threadId, run.runId);
    expect(listed.map((event) => event.content)).toEqual([message.content, "plain words"]);
  });

  it("revives checkpointed messages as LangChain messages on both sides", async () => {
    const stores = await openStores();
    const threadId = `port-${randomUUID()}`;
    const run = await ownedRun(stores, threadId);
    const { far } = overChannel(run.savers);
    const step = { messages: [new HumanMessage("hello"), new AIMessage("hi")], counter: 0 };
    await putStep(far.checkpointer, threadId, undefined, step);
    const near = await run.saver.getTuple({ configurable: { thread_id: threadId } });
    const farTuple = await far.checkpointer.getTuple({ configurable: { thread_id: threadId } });
    for (const tuple of [near, farTuple]) {
      const messages = tuple?.checkpoint.channel_values.messages;
      expect(Array.isArray(messages) && messages.map((m) => m instanceof AIMessage)).toEqual([
        false,
        true,
      ]);
    }
    expect(farTuple?.pendingWrites).toEqual(near?.pendingWrites);
  });

  it("fails pending calls when the worker side closes, and rejects calls after", async () => {
    const store = new HangingStore();
    const { far } = overChannel({ store });
    const pending = far.store.get(["a"], "k");
    await expect.poll(() => store.calls).toBe(1);
    far.close();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(String(error)).toMatch(/the port was closed \(it was closed on this side\)/);
    await expect(far.store.get(["a"], "k")).rejects.toThrow(/the call was not sent/);
    await expect(far.checkpointer.getTuple({ configurable: { thread_id: "t" } })).rejects.toThrow(
      /the call was not sent/,
    );
  });

  it("fails pending calls when the main side stops serving", async () => {
    const store = new HangingStore();
    const { far, served } = overChannel({ store });
    const pending = far.store.get(["a"], "k");
    await expect.poll(() => store.calls).toBe(1);
    served.close();
    await expect(pending).rejects.toThrow(/the other side closed it/);
    await expect(far.events.putBatch([])).rejects.toThrow(/the call was not sent/);
  });

  it("brings a CancelledError back as one, and says what is not served", async () => {
    const store = new HangingStore(new CancelledError("run cancelled"));
    const { far } = overChannel({ store });
    const error = await far.store.get(["a"], "k").catch((e: unknown) => e);
    expect(isCancelledError(error)).toBe(true);
    await expect(far.checkpointer.getTuple({ configurable: { thread_id: "t" } })).rejects.toThrow(
      /No checkpointer is served for this run/,
    );
  });

  it("serves a real Worker thread", async () => {
    const stores = await openStores();
    const threadId = `port-${randomUUID()}`;
    const run = await ownedRun(stores, threadId);
    const { port1, port2 } = new MessageChannel();
    const served = serveRunSavers(port1, run.savers);
    cleanups.push(() => served.close());
    const worker = new Worker(typeScriptWorker(new URL("./savers-worker.ts", import.meta.url)), {
      eval: true,
      workerData: { port: port2, threadId, runId: run.runId },
      transferList: [port2],
    });
    cleanups.push(async () => {
      await worker.terminate();
    });
    const report = await new Promise<unknown>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    expect(report).toEqual({ revivedAiMessage: true, history: 2 });
    const head = await run.saver.getTuple({ configurable: { thread_id: threadId } });
    const messages = head?.checkpoint.channel_values.messages;
    expect(Array.isArray(messages) && messages.map((m) => m instanceof AIMessage)).toEqual([
      false,
      true,
    ]);
    const events = await stores.events.listEvents(threadId, run.runId);
    expect(events.map((event) => event.content)).toEqual([{ text: "from the worker" }]);
  });
});

/**
 * A worker's source that loads the TypeScript module at `url` through tsx's loader (Node 20
 * applies no `--import` hooks to a worker's entry file). `tsx/esm/api` resolves from the
 * package root, the test's working directory.
 */
function typeScriptWorker(url: URL): string {
  return `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
}

/** A store whose batch waits forever (or fails with `error`), counting the calls it got. */
class HangingStore extends BaseStore {
  calls = 0;
  constructor(private readonly error?: Error) {
    super();
  }

  batch<Op extends Operation[]>(_operations: Op): Promise<OperationResults<Op>> {
    this.calls += 1;
    return this.error ? Promise.reject(this.error) : new Promise(() => undefined);
  }
}
