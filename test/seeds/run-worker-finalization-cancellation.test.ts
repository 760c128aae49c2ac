/**
 * Port of seed 001 (`test_run_worker_finalization_cancellation.py`): host cancellation must
 * preserve the terminal lifecycle and owned cleanup. Real worker, manager, journal and memory
 * stores; faults are injected only at the store, bridge and journal boundaries.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnTask, type Task } from "../../src/core/async/task.js";
import { CancelledError, ConflictError, isCancelledError } from "../../src/core/errors.js";
import type { StreamingAgent } from "../../src/ports/agent.js";
import type {
  NewRunEvent,
  PutIfAbsentOptions,
  PutIfAbsentResult,
  RunEvent,
} from "../../src/ports/run-event-store.js";
import type { StatusUpdate } from "../../src/ports/run-store.js";
import type { RunStatus } from "../../src/ports/run-types.js";
import type { ProducerOwner } from "../../src/ports/stream-bridge.js";
import type { ThreadStatus } from "../../src/ports/thread-store.js";
import { RunJournal, type RunJournalOptions } from "../../src/runtime/journal/run-journal.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import type { RunRecord } from "../../src/runtime/run-record.js";
import { drainRunFinalization } from "../../src/runtime/worker/drain.js";
import { startRunWorker } from "../../src/runtime/worker/run-agent.js";
import type { RunContext } from "../../src/runtime/worker/run-context.js";
import { MemoryRunEventStore } from "../../src/stores/memory/run-event-store.js";
import { MemoryRunStore } from "../../src/stores/memory/run-store.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { Latch, settlesWithin, tick, within } from "../helpers/latch.js";

class DummyAgent implements StreamingAgent {
  async *chunks(): AsyncGenerator<unknown> {
    yield {
      type: "task_started",
      task_id: "verification-subtask",
      description: "offline verification",
    };
  }

  stream(): AsyncIterable<unknown> {
    return this.chunks();
  }
}

type ThreadStatusStub = {
  updateStatus(threadId: string, status: ThreadStatus, now: string): Promise<boolean>;
};

interface StartOptions {
  eventStore: MemoryRunEventStore;
  threadStore?: ThreadStatusStub;
  runStore?: MemoryRunStore;
  bridge?: MemoryStreamBridge;
  createJournal?: (options: RunJournalOptions) => RunJournal;
  completionHook?: (record: RunRecord, options: { signal: AbortSignal }) => Promise<void>;
}

interface StartedRun {
  worker: Task<void>;
  manager: RunManager;
  record: RunRecord;
  bridge: MemoryStreamBridge;
  runStore: MemoryRunStore;
  eventStore: MemoryRunEventStore;
  completions: () => number;
  cleanupTasks: Task<void>[];
}

const started: StartedRun[] = [];

async function startRun(options: StartOptions): Promise<StartedRun> {
  const runStore = options.runStore ?? new MemoryRunStore();
  const manager = new RunManager({ store: runStore });
  const record = await manager.createOrReject("verify-6914");
  const bridge = options.bridge ?? new MemoryStreamBridge();
  let completions = 0;
  const cleanupTasks: Task<void>[] = [];
  const ctx: RunContext = {
    checkpointer: null,
    eventStore: options.eventStore,
    threadStore: options.threadStore ?? null,
    onRunCompleted: async (rec, hookOptions) => {
      completions += 1;
      await options.completionHook?.(rec, hookOptions);
    },
    spawnHousekeeping: (name, work) => {
      cleanupTasks.push(spawnTask(name, work));
    },
  };
  if (options.createJournal) ctx.createJournal = options.createJournal;
  const worker = startRunWorker(bridge, manager, record, {
    ctx,
    agentFactory: () => new DummyAgent(),
    graphInput: {},
    config: {},
    streamModes: ["custom"],
  });
  const run: StartedRun = {
    worker,
    manager,
    record,
    bridge,
    runStore,
    eventStore: options.eventStore,
    completions: () => completions,
    cleanupTasks,
  };
  started.push(run);
  return run;
}

async function snapshot(run: StartedRun) {
  const { record } = run;
  const stored = await run.runStore.get(record.runId);
  const events = await run.eventStore.listEvents(record.threadId, record.runId);
  let replacementAdmitted: boolean;
  try {
    await run.manager.createOrReject(record.threadId);
    replacementAdmitted = true;
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    replacementAdmitted = false;
  }
  return {
    cancelled: run.worker.isCancelled(),
    localStatus: record.status,
    storedStatus: stored?.status,
    terminalCommitPending: record.terminalCommitPending,
    finalizing: record.finalizing,
    receiptCount: events.filter((e) => e.event_type === "run.delivery").length,
    subagentCount: events.filter((e) => e.event_type === "subagent.start").length,
    end: run.bridge.hasEnded(record.runId),
    completionHooks: run.completions(),
    replacementAdmitted,
  };
}

async function reap(run: StartedRun): Promise<void> {
  if (!run.worker.isDone()) run.worker.cancel();
  await run.worker.settled();
  for (const task of run.cleanupTasks) task.cancel();
  await Promise.all(run.cleanupTasks.map((t) => t.settled()));
}

afterEach(async () => {
  for (const run of started.splice(0)) await reap(run);
});

const isTerminal = (status: RunStatus): boolean => status !== "pending" && status !== "running";

describe("run worker finalization under host cancellation (seed 001)", () => {
  it.each([
    "receipt",
    "subagent_flush",
    "thread_status",
    "terminal_status",
    "journal_close",
    "end",
  ] as const)("cancellation preserves terminal lifecycle [%s]", async (stage) => {
    const entered = new Latch();
    const release = new Latch();
    const closed = new Latch();
    const gate = async (): Promise<void> => {
      entered.set();
      await release.wait();
    };

    class GatedEventStore extends MemoryRunEventStore {
      override async putIfAbsent(
        event: NewRunEvent,
        options?: PutIfAbsentOptions,
      ): Promise<PutIfAbsentResult> {
        if (stage === "receipt" && event.event_type === "run.delivery") await gate();
        return super.putIfAbsent(event, options);
      }

      override async putBatch(events: readonly NewRunEvent[]): Promise<RunEvent[]> {
        if (stage === "subagent_flush" && events.some((e) => e.event_type === "subagent.start"))
          await gate();
        return super.putBatch(events);
      }
    }

    class GatedRunStore extends MemoryRunStore {
      override async updateStatus(
        runId: string,
        status: RunStatus,
        update?: StatusUpdate,
      ): Promise<boolean | null> {
        if (stage === "terminal_status" && isTerminal(status)) await gate();
        return super.updateStatus(runId, status, update);
      }
    }

    class GatedBridge extends MemoryStreamBridge {
      override async publishEnd(runId: string): Promise<void> {
        if (stage === "end") await gate();
        await super.publishEnd(runId);
      }
    }

    class GatedJournal extends RunJournal {
      override async close(options?: { discard?: boolean }): Promise<void> {
        if (stage === "journal_close") await gate();
        await super.close(options);
        closed.set();
      }
    }

    const threadStore: ThreadStatusStub = {
      async updateStatus(_threadId, status) {
        if (stage === "thread_status" && status !== "busy") await gate();
        return true;
      },
    };

    const run = await startRun({
      eventStore: new GatedEventStore(),
      threadStore,
      runStore: new GatedRunStore(),
      bridge: new GatedBridge(),
      createJournal: (options) => new GatedJournal(options),
    });
    try {
      await within(entered.wait(), 5000, `stage ${stage} was never reached`);
      run.worker.cancel("verification cancellation");
      await tick();
      for (let i = 0; i < 3; i += 1) {
        run.worker.cancel("repeated finalization cancellation");
        await tick();
      }
      expect(run.worker.isDone()).toBe(false);
      expect(run.cleanupTasks).toHaveLength(0);
      release.set();
      expect(await settlesWithin(run.worker.promise, 5000)).toBe(true);
      const error = await run.worker.promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(isCancelledError(error)).toBe(true);
      expect((error as CancelledError).message).toMatch("verification cancellation");
      expect(closed.isSet).toBe(true);
      const state = await snapshot(run);
      expect(state.cancelled).toBe(true);
      expect(state.end).toBe(true);
      expect(state.receiptCount).toBe(1);
      expect(state.subagentCount).toBe(1);
      expect(state.storedStatus).toBe(state.localStatus);
      expect(state.terminalCommitPending).toBe(false);
      expect(state.finalizing).toBe(false);
      expect(state.completionHooks).toBe(1);
      expect(state.replacementAdmitted).toBe(true);
    } finally {
      release.set();
    }
  });

  it("cancel is preserved when guarded flush fails", async () => {
    const entered = new Latch();
    const release = new Latch();
    let firstFlush = true;

    class FailingFlushJournal extends RunJournal {
      override async flush(): Promise<void> {
        if (firstFlush) {
          firstFlush = false;
          entered.set();
          await release.wait();
          throw new Error("injected finalization flush failure");
        }
        return super.flush();
      }
    }

    const run = await startRun({
      eventStore: new MemoryRunEventStore(),
      createJournal: (options) => new FailingFlushJournal(options),
    });
    try {
      await within(entered.wait(), 5000, "the guarded flush was never reached");
      run.worker.cancel("original host cancellation");
      await tick();
      release.set();
      expect(await settlesWithin(run.worker.promise, 5000)).toBe(true);
      const state = await snapshot(run);
      expect(state.cancelled).toBe(true);
      expect(state.end).toBe(true);
    } finally {
      release.set();
    }
  });

  it("stream producer lease brackets terminal commit and end", async () => {
    const runStore = new MemoryRunStore();
    const order: Array<[string, string | undefined]> = [];

    class TrackingBridge extends MemoryStreamBridge {
      override async startProducerLease(runId: string): Promise<boolean> {
        order.push(["start", (await runStore.get(runId))?.status]);
        return true;
      }

      override async publishEnd(runId: string): Promise<void> {
        order.push(["end", (await runStore.get(runId))?.status]);
        await super.publishEnd(runId);
      }

      override transferProducerLease(_runId: string, owner: ProducerOwner): void {
        order.push(["transfer", owner.name]);
      }

      override async finishProducerLease(runId: string): Promise<void> {
        order.push(["finish", (await runStore.get(runId))?.status]);
      }
    }

    const run = await startRun({
      eventStore: new MemoryRunEventStore(),
      runStore,
      bridge: new TrackingBridge(),
    });
    await within(run.worker.promise, 5000, "run did not finish");
    expect(order).toEqual([
      ["start", "running"],
      ["transfer", `run-finalization-${run.record.runId}`],
      ["end", "success"],
      ["finish", "success"],
    ]);
  });

  it("failed finalizer preserves host cancellation as primary", async () => {
    const entered = new Latch();
    const release = new Latch();
    const failure = new Error("finalizer failed during cancellation drain");
    const finalizer = spawnTask("finalizer", async () => {
      entered.set();
      await release.wait();
      throw failure;
    });
    const host = spawnTask("host", (signal) => drainRunFinalization(finalizer, signal));
    try {
      await within(entered.wait(), 5000, "finalizer never started");
      host.cancel("first host cancellation");
      await tick();
      host.cancel("second host cancellation");
      await tick();
      expect(finalizer.isDone()).toBe(false);
      release.set();
      const caught = await host.promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(isCancelledError(caught)).toBe(true);
      expect((caught as CancelledError).message).toBe("first host cancellation");
      expect((caught as CancelledError).cause).toBe(failure);
      expect(finalizer.isDone()).toBe(true);
      expect(finalizer.exception()).toBe(failure);
    } finally {
      release.set();
      await Promise.all([host.settled(), finalizer.settled()]);
    }
  });

  it("finalizer cancellation is not mistaken for host cancellation", async () => {
    const finalizer = spawnTask("finalizer", async () => {
      throw new CancelledError("finalizer interrupted");
    });
    const host = spawnTask("host", (signal) => drainRunFinalization(finalizer, signal));
    const caught = await host.promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isCancelledError(caught)).toBe(true);
    expect(host.cancelRequests).toBe(0);
    expect(host.signal.aborted).toBe(false);
  });

  it.each(["thread_status", "journal_close", "end"] as const)(
    "shutdown drains terminal worker after durable commit [%s]",
    async (stage) => {
      const entered = new Latch();
      const release = new Latch();
      const shutdownEntered = new Latch();
      const gate = async (): Promise<void> => {
        entered.set();
        await release.wait();
      };
      const threadStore: ThreadStatusStub = {
        async updateStatus(_threadId, status) {
          if (stage === "thread_status" && status !== "busy") await gate();
          return true;
        },
      };

      class GatedJournal extends RunJournal {
        override async close(options?: { discard?: boolean }): Promise<void> {
          if (stage === "journal_close") await gate();
          await super.close(options);
        }
      }

      class GatedBridge extends MemoryStreamBridge {
        override async publishEnd(runId: string): Promise<void> {
          if (stage === "end") await gate();
          await super.publishEnd(runId);
        }
      }

      const run = await startRun({
        eventStore: new MemoryRunEventStore(),
        threadStore,
        bridge: new GatedBridge(),
        createJournal: (options) => new GatedJournal(options),
      });
      let shutdown: Promise<void> | null = null;
      try {
        await within(entered.wait(), 5000, `stage ${stage} was never reached`);
        expect((await run.runStore.get(run.record.runId))?.status).toBe("success");
        expect(run.record.terminalCommitPending).toBe(false);
        const originalStop = run.manager.stopHeartbeat.bind(run.manager);
        run.manager.stopHeartbeat = async (options) => {
          await originalStop(options);
          shutdownEntered.set();
        };
        // A short drain budget may expire, but must not cancel or retire the still-owned
        // finalizer. A later drain finishes it.
        await run.manager.shutdown({ timeoutMs: 10 });
        expect(run.worker.isDone()).toBe(false);
        shutdownEntered.clear();
        let shutdownDone = false;
        shutdown = run.manager.shutdown({ timeoutMs: 5000 }).finally(() => {
          shutdownDone = true;
        });
        await within(shutdownEntered.wait(), 5000, "shutdown never stopped the heartbeat");
        await tick();
        expect(shutdownDone).toBe(false);
        expect(run.cleanupTasks).toHaveLength(0);
        release.set();
        await within(shutdown, 5000, "shutdown did not finish after release");
        expect(run.worker.isDone()).toBe(true);
        expect(run.worker.isCancelled()).toBe(false);
        const state = await snapshot(run);
        expect(state.end).toBe(true);
        expect(state.completionHooks).toBe(1);
        expect(state.storedStatus).toBe("success");
      } finally {
        release.set();
        if (shutdown) await shutdown.catch(() => undefined);
      }
    },
  );

  it("earlier cancellation does not leave completion hook blocked", async () => {
    const receiptEntered = new Latch();
    const releaseReceipt = new Latch();
    let hookStopped = false;

    class GatedEventStore extends MemoryRunEventStore {
      override async putIfAbsent(
        event: NewRunEvent,
        options?: PutIfAbsentOptions,
      ): Promise<PutIfAbsentResult> {
        if (event.event_type === "run.delivery") {
          receiptEntered.set();
          await releaseReceipt.wait();
        }
        return super.putIfAbsent(event, options);
      }
    }

    const run = await startRun({
      eventStore: new GatedEventStore(),
      completionHook: async (_record, { signal }) => {
        try {
          await new Promise<void>((resolve) => {
            if (signal.aborted) resolve();
            else signal.addEventListener("abort", () => resolve(), { once: true });
          });
        } finally {
          hookStopped = true;
        }
      },
    });
    try {
      await within(receiptEntered.wait(), 5000, "receipt stage never reached");
      run.worker.cancel("cancellation before the completion hook");
      await tick();
      releaseReceipt.set();
      expect(await settlesWithin(run.worker.promise, 5000)).toBe(true);
      const error = await run.worker.promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect((error as CancelledError).message).toMatch("cancellation before the completion hook");
      expect(hookStopped).toBe(true);
      expect(run.bridge.hasEnded(run.record.runId)).toBe(true);
    } finally {
      releaseReceipt.set();
    }
  });

  it("a completion hook that ignores its signal still cannot stall a cancelled run", async () => {
    const run = await startRun({
      eventStore: new MemoryRunEventStore(),
      completionHook: () => new Promise<void>(() => undefined),
    });
    run.worker.cancel("cancelled before the hook");
    expect(await settlesWithin(run.worker.promise, 5000)).toBe(true);
    expect(run.bridge.hasEnded(run.record.runId)).toBe(true);
    expect(run.completions()).toBe(1);
  });
});
