/**
 * Port of seed 004 (`test_run_terminal_protocol.py`): authoritative `run.terminal` evidence
 * through real finalization and confirmed recovery takeover. Real RunManager, worker, journal and
 * stores (SQLite, and the memory adapters as a second backend); faults are injected by replacing
 * store methods on the instances, never by mocking the worker.
 */
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnTask, type Task } from "../../src/core/async/task.js";
import { CancelledError } from "../../src/core/errors.js";
import { DEFAULT_USER_ID, FawnPaths } from "../../src/core/paths.js";
import type { StreamingAgent } from "../../src/ports/agent.js";
import type { FawnStores } from "../../src/ports/fawn-stores.js";
import type {
  EvidenceReceipt,
  NewRunEvent,
  PutIfAbsentOptions,
  PutIfAbsentResult,
  RunEvent,
  RunEventStore,
} from "../../src/ports/run-event-store.js";
import { newRunRow } from "../../src/ports/run-row.js";
import type { RunStore } from "../../src/ports/run-store.js";
import type { OperationKind, RunStatus } from "../../src/ports/run-types.js";
import { RunJournal } from "../../src/runtime/journal/run-journal.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import type { RunRecord } from "../../src/runtime/run-record.js";
import { confirmTerminalEvent } from "../../src/runtime/terminal-evidence.js";
import { fileSystemOutputsScanner } from "../../src/runtime/worker/produced-outputs.js";
import { restoreRollbackPoint } from "../../src/runtime/worker/rollback.js";
import { startRunWorker } from "../../src/runtime/worker/run-agent.js";
import type { RunContext } from "../../src/runtime/worker/run-context.js";
import { JsonlRunEventStore } from "../../src/stores/jsonl/run-event-store.js";
import { MemoryRunEventStore } from "../../src/stores/memory/run-event-store.js";
import { MemoryRunStore } from "../../src/stores/memory/run-store.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { openSqlStores } from "../../src/stores/sql/stores.js";
import { Latch, within } from "../helpers/latch.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { runJournalOf } from "../helpers/run-journal-of.js";

interface RootAgentOptions {
  completions?: number;
  afterGraph?: (journal: RunJournal) => Promise<void>;
}

/** Offline graph boundary: lifecycle callbacks and the worker stay real. */
function rootAgent(options: RootAgentOptions = {}): StreamingAgent {
  return {
    async *stream(_input, streamOptions) {
      const journal = runJournalOf(streamOptions);
      if (!journal) throw new Error("the worker did not hand the journal to the graph");
      for (let invocation = 0; invocation < (options.completions ?? 1); invocation += 1) {
        const graphId = randomUUID();
        journal.handleChainStart({ name: "offline-graph" }, {}, graphId);
        journal.handleChainEnd({ invocation }, graphId);
      }
      await options.afterGraph?.(journal);
      yield { messages: [] };
    },
  };
}

interface StartOptions {
  agent?: StreamingAgent;
  completionHook?: RunContext["onRunCompleted"];
  checkpointer?: MemorySaver;
  beforeStart?: (record: RunRecord) => Promise<void>;
  graphInput?: unknown;
  heartbeatEnabled?: boolean;
  userId?: string;
  eventStore?: RunEventStore;
  ctx?: Partial<RunContext>;
}

interface StartedRun {
  task: Task<void>;
  manager: RunManager;
  record: RunRecord;
  bridge: MemoryStreamBridge;
}

let root: string;
let stores: FawnStores;
let runs: RunStore;
let events: RunEventStore;
let paths: FawnPaths;
const workers: Task<void>[] = [];
const housekeeping: Task<void>[] = [];

function ownership(heartbeatEnabled: boolean) {
  return { heartbeatEnabled, leaseSeconds: 300, graceSeconds: 0 };
}

async function start(options: StartOptions = {}): Promise<StartedRun> {
  const eventStore = options.eventStore ?? events;
  const manager = new RunManager({
    store: runs,
    eventStore,
    workerId: `terminal-owner-${randomUUID()}`,
    ownership: ownership(options.heartbeatEnabled ?? true),
  });
  const record = await manager.createOrReject(`terminal-thread-${randomUUID()}`, {
    userId: options.userId ?? null,
  });
  await options.beforeStart?.(record);
  const bridge = new MemoryStreamBridge();
  const agent = options.agent ?? rootAgent();
  const task = startRunWorker(bridge, manager, record, {
    ctx: {
      checkpointer: options.checkpointer ?? null,
      eventStore,
      onRunCompleted: options.completionHook ?? null,
      spawnHousekeeping: (name, work) => {
        housekeeping.push(spawnTask(name, work));
      },
      outputsDirFor: (r) =>
        paths.threadPaths({ userId: r.userId ?? DEFAULT_USER_ID, threadId: r.threadId }).outputsDir,
      ...options.ctx,
    },
    agentFactory: () => agent,
    graphInput: options.graphInput ?? {},
    config: { configurable: { thread_id: record.threadId } },
  });
  workers.push(task);
  return { task, manager, record, bridge };
}

/** Wait for the worker without cancelling it; optionally accept a cancelled ending. */
async function settled(
  task: Task<void>,
  options: { allowCancelled?: boolean } = {},
): Promise<void> {
  await within(task.settled(), 5000, `worker ${task.name} did not settle`);
  if (task.state === "failed") throw task.exception();
  if (task.state === "cancelled" && !options.allowCancelled) throw task.exception();
}

async function terminalEvents(
  record: { threadId: string; runId: string },
  store = events,
): Promise<RunEvent[]> {
  return store.listEvents(record.threadId, record.runId, {
    eventTypes: ["run.terminal"],
    userId: null,
  });
}

function confirmedTerminal(
  list: RunEvent[],
  record: { threadId: string; runId: string },
  status: string,
  recovered = false,
): RunEvent {
  expect(list, `expected one authoritative run.terminal(${status})`).toHaveLength(1);
  const [terminal] = list;
  if (!terminal) throw new Error("unreachable");
  expect([terminal.thread_id, terminal.run_id, terminal.event_type]).toEqual([
    record.threadId,
    record.runId,
    "run.terminal",
  ]);
  expect(terminal.category).toBe("trace");
  expect(terminal.content).toEqual({ status });
  expect(terminal.metadata.protocol_version).toBe(1);
  expect(terminal.metadata.recovered).toBe(recovered);
  return terminal;
}

interface ExpiredRun {
  runId: string;
  threadId: string;
  userId: string;
}

async function putExpiredRun(
  options: { operationKind?: OperationKind; userId?: string } = {},
): Promise<ExpiredRun> {
  const runId = `recovery-run-${randomUUID()}`.slice(0, 64);
  const threadId = `recovery-thread-${randomUUID()}`.slice(0, 64);
  const userId = options.userId ?? "alice";
  const created = new Date(Date.now() - 120_000).toISOString();
  await runs.put(
    newRunRow(
      {
        run_id: runId,
        thread_id: threadId,
        user_id: userId,
        operation_kind: options.operationKind ?? "run",
        created_at: created,
      },
      {
        status: "running",
        owner_worker_id: "dead-owner",
        lease_expires_at: new Date(Date.now() - 60_000).toISOString(),
      },
    ),
  );
  return { runId, threadId, userId };
}

function recoveryManager(): RunManager {
  return new RunManager({
    store: runs,
    eventStore: events,
    workerId: `recovery-${randomUUID()}`,
    ownership: ownership(true),
  });
}

function reconcile(manager: RunManager, error = "orphan recovered"): Promise<RunRecord[]> {
  return manager.reconcileOrphanedInflightRuns({
    error,
    before: new Date().toISOString(),
    stopReason: "orphan_recovered",
  });
}

const postgres = await createPostgresTestDatabase("terminal_protocol");
afterAll(async () => {
  await postgres?.drop();
});

const backends: Array<[string, (dir: string) => Promise<FawnStores>]> = [
  ["sqlite", (dir) => openSqlStores(`sqlite:${join(dir, "terminal-protocol.db")}`)],
  ["memory", async () => createMemoryStores()],
];
// Outside CI an unreachable PostgreSQL skips this backend (the helper warns loudly); in CI it fails.
if (postgres) backends.push(["postgres", () => openSqlStores(postgres.url)]);

describe.each(backends)(
  "authoritative run.terminal evidence (seed 004, %s stores)",
  (_name, openStores) => {
    beforeEach(async () => {
      root = await mkdtemp(join(tmpdir(), "fawn-terminal-"));
      stores = await openStores(root);
      runs = stores.runs;
      events = stores.events;
      paths = new FawnPaths(join(root, "home"));
    });

    afterEach(async () => {
      for (const task of workers.splice(0)) {
        if (!task.isDone()) task.cancel();
        await within(task.settled(), 5000, "a worker did not stop");
      }
      for (const task of housekeeping.splice(0)) task.cancel();
      await stores.close();
      await rm(root, { recursive: true, force: true });
    });

    it("two root completions keep legacy outputs and one terminal", async () => {
      const run = await start({ agent: rootAgent({ completions: 2 }) });
      await settled(run.task);
      const row = await runs.get(run.record.runId);
      const all = await events.listEvents(run.record.threadId, run.record.runId);
      expect(row?.status).toBe("success");
      expect(run.manager.hasFinalTerminalAck(run.record)).toBe(true);
      expect(all.filter((e) => e.event_type === "run.start")).toHaveLength(2);
      const legacy = all.filter((e) => e.event_type === "run.end");
      expect(legacy.map((e) => e.content)).toEqual([{ invocation: 0 }, { invocation: 1 }]);
      for (const event of legacy) {
        expect(event.category).toBe("outputs");
        expect(event.metadata.status).toBe("success");
      }
      confirmedTerminal(await terminalEvents(run.record), run.record, "success");
    });

    it("graph success before failed artifact delivery has error terminal", async () => {
      const entered = new Latch();
      const release = new Latch();
      let outputDir = "";
      const run = await start({
        beforeStart: async (record) => {
          outputDir = paths.threadPaths({
            userId: DEFAULT_USER_ID,
            threadId: record.threadId,
          }).outputsDir;
          await mkdir(outputDir, { recursive: true });
        },
        agent: rootAgent({
          afterGraph: async (journal) => {
            await journal.flush();
            await writeFile(join(outputDir, "report.md"), "report\n", "utf8");
          },
        }),
        ctx: {
          outputsScanner: {
            snapshot: (dir) => fileSystemOutputsScanner.snapshot(dir),
            produced: async (dir, before) => {
              const result = await fileSystemOutputsScanner.produced(dir, before);
              entered.set();
              await release.wait();
              return result;
            },
          },
        },
      });
      try {
        await within(entered.wait(), 5000, "verification never ran");
        const legacy = await events.listEvents(run.record.threadId, run.record.runId, {
          eventTypes: ["run.end"],
        });
        expect(legacy).toHaveLength(1);
        expect(legacy[0]?.metadata.status).toBe("success");
        expect((await runs.get(run.record.runId))?.status).toBe("running");
        expect(await terminalEvents(run.record)).toEqual([]);
      } finally {
        release.set();
      }
      await settled(run.task);
      const row = await runs.get(run.record.runId);
      expect(row?.status).toBe("error");
      expect(row?.error).toBe(
        "Artifact delivery incomplete: no produced output artifact was presented",
      );
      const delivery = await events.listEvents(run.record.threadId, run.record.runId, {
        eventTypes: ["run.delivery"],
      });
      expect(delivery[0]?.content).toMatchObject({
        produced_paths: ["/mnt/user-data/outputs/report.md"],
        satisfied: false,
      });
      confirmedTerminal(await terminalEvents(run.record), run.record, "error");
    });

    it("peer takeover rejects old owner and healthy owner publishes", async () => {
      const entered = new Latch();
      const release = new Latch();
      const original = runs.finalizeIfNotCancelled.bind(runs);
      runs.finalizeIfNotCancelled = async (...args) => {
        entered.set();
        await release.wait();
        return original(...args);
      };
      const run = await start();
      try {
        await within(entered.wait(), 5000, "the owner never reached its completion CAS");
        expect((await runs.get(run.record.runId))?.status).toBe("running");
        expect(run.record.terminalCommitProof).toBeNull();
        const expired = new Date(Date.now() - 60_000).toISOString();
        expect(
          (await runs.renewLease(run.record.runId, run.manager.workerId, expired)).renewed,
        ).toBe(true);
        run.record.leaseExpiresAt = expired;
        const claimed = await runs.claimForTakeover(run.record.runId, {
          now: new Date().toISOString(),
          graceSeconds: 0,
          error: "peer takeover",
          stopReason: "orphan_recovered",
          workerId: "peer",
        });
        expect(claimed).toBe(true);
      } finally {
        release.set();
      }
      await settled(run.task, { allowCancelled: true });
      runs.finalizeIfNotCancelled = original;
      expect((await runs.get(run.record.runId))?.error).toBe("peer takeover");
      expect(run.record.ownershipLost).toBe(true);
      expect(run.record.terminalCommitProof).toBeNull();
      expect(await terminalEvents(run.record)).toEqual([]);

      const healthy = await start();
      await settled(healthy.task);
      expect(healthy.manager.hasFinalTerminalAck(healthy.record)).toBe(true);
      confirmedTerminal(await terminalEvents(healthy.record), healthy.record, "success");
    });

    it("rollback intermediate ack waits for restoration and final error", async () => {
      const executing = new Latch();
      const restoring = new Latch();
      const release = new Latch();
      const saver = new MemorySaver();
      const restored: boolean[] = [];
      const graph = new StateGraph(MessagesAnnotation)
        .addNode("work", async (_state, config: RunnableConfig) => {
          executing.set();
          await new Promise<void>((resolve) =>
            config.signal?.addEventListener("abort", () => resolve(), { once: true }),
          );
          return { messages: [] };
        })
        .addEdge(START, "work")
        .addEdge("work", END)
        .compile({ checkpointer: saver });
      const agent: StreamingAgent = {
        stream: (input, options) =>
          graph.stream(input as { messages: BaseMessage[] }, {
            configurable: options.configurable,
            signal: options.signal,
            streamMode: "values",
          }),
      };
      const run = await start({
        agent,
        checkpointer: saver,
        beforeStart: async (record) => {
          await graph.updateState(
            { configurable: { thread_id: record.threadId } },
            { messages: [new HumanMessage({ content: "original", id: "before" })] },
            "work",
          );
        },
        graphInput: { messages: [new HumanMessage({ content: "abandoned", id: "during" })] },
        ctx: {
          restoreCheckpoint: async (...args) => {
            restoring.set();
            await release.wait();
            const result = await restoreRollbackPoint(...args);
            restored.push(result);
            return result;
          },
        },
      });
      try {
        await within(executing.wait(), 5000, "graph never ran");
        expect(await run.manager.cancel(run.record.runId, { action: "rollback" })).toBe(
          "cancelled",
        );
        await within(restoring.wait(), 5000, "restore never started");
        expect(run.record.terminalCommitProof?.status).toBe("interrupted");
        expect(run.record.rollbackFinalizationPending).toBe(true);
        expect(run.manager.hasFinalTerminalAck(run.record)).toBe(false);
        expect((await runs.get(run.record.runId))?.status).toBe("interrupted");
        expect(await terminalEvents(run.record)).toEqual([]);
      } finally {
        release.set();
      }
      await settled(run.task, { allowCancelled: true });
      expect(restored).toEqual([true]);
      const snapshot = await graph.getState({ configurable: { thread_id: run.record.threadId } });
      const messages = (snapshot.values as { messages: BaseMessage[] }).messages;
      expect(messages.map((m) => [m.id, m.content])).toEqual([["before", "original"]]);
      expect(run.manager.hasFinalTerminalAck(run.record)).toBe(true);
      expect(run.record.terminalCommitProof?.status).toBe("error");
      expect((await runs.get(run.record.runId))?.status).toBe("error");
      confirmedTerminal(await terminalEvents(run.record), run.record, "error");
    });

    it("unknown journal write blocks complete tail with healthy control", async () => {
      const entered = new Latch();
      const release = new Latch();
      const original = events.putBatch.bind(events);
      const attempts: (readonly NewRunEvent[])[] = [];
      events.putBatch = async (batch) => {
        const result = await original(batch);
        if (batch.some((e) => e.event_type === "middleware:unknown")) {
          attempts.push(batch);
          entered.set();
          await release.wait();
          throw new Error("Journal commit acknowledgement lost");
        }
        return result;
      };
      const run = await start({
        agent: rootAgent({
          afterGraph: async (journal) => {
            journal.recordMiddleware("unknown", {
              name: "unknown",
              hook: "test",
              action: "accepted",
              changes: {},
            });
          },
        }),
      });
      try {
        await within(entered.wait(), 5000, "the ambiguous batch was never written");
        const persisted = await events.listEvents(run.record.threadId, run.record.runId);
        expect(persisted.some((e) => e.event_type === "middleware:unknown")).toBe(true);
        expect(await terminalEvents(run.record)).toEqual([]);
        expect((await runs.get(run.record.runId))?.evidence_seal_state).not.toBe("sealed");
      } finally {
        release.set();
      }
      await settled(run.task);
      events.putBatch = original;
      expect(attempts, "an ambiguously committed batch must never be replayed").toHaveLength(1);
      const row = await runs.get(run.record.runId);
      expect(row?.status, "evidence failure must not rewrite business success").toBe("success");
      expect(row?.evidence_seal_state).toBe("partial");
      expect(await terminalEvents(run.record)).toEqual([]);

      const healthy = await start();
      await settled(healthy.task);
      confirmedTerminal(await terminalEvents(healthy.record), healthy.record, "success");
    });

    it("admitted producer callback precedes terminal after freeze", async () => {
      const freezing = new Latch();
      const releaseProducer = new Latch();
      const journals: RunJournal[] = [];

      class FreezeObservingJournal extends RunJournal {
        override async freeze(): Promise<void> {
          if (journals[0] === this) freezing.set();
          await super.freeze();
        }
      }

      const run = await start({
        agent: rootAgent({
          afterGraph: async (journal) => {
            journals.push(journal);
          },
        }),
        // The completion hook is a legitimate evidence producer before the freeze; its evidence
        // lands later, after the freeze began.
        completionHook: async () => {
          journals[0]?.admitProducer(async (sink) => {
            await releaseProducer.wait();
            sink.recordMiddleware("accepted", {
              name: "accepted",
              hook: "stop",
              action: "done",
              changes: {},
            });
          });
        },
        ctx: { createJournal: (options) => new FreezeObservingJournal(options) },
      });
      try {
        await within(freezing.wait(), 5000, "the journal never froze");
        const journal = journals[0];
        expect(journal?.pendingProducerCount).toBe(1);
        expect(journal?.acceptingEvidence).toBe(false);
        expect(await terminalEvents(run.record)).toEqual([]);
        expect((await runs.get(run.record.runId))?.evidence_seal_state).toBe("pending");
      } finally {
        releaseProducer.set();
      }
      await settled(run.task);
      const all = await events.listEvents(run.record.threadId, run.record.runId);
      const accepted = all.filter((e) => e.event_type === "middleware:accepted");
      expect(accepted).toHaveLength(1);
      const terminal = confirmedTerminal(await terminalEvents(run.record), run.record, "success");
      expect(accepted[0]?.seq).toBeLessThan(terminal.seq);
    });

    it("confirmed terminal is inside original receipt and seal", async () => {
      const receiptEntered = new Latch();
      const releaseReceipt = new Latch();
      const terminalWritten = new Latch();
      const acknowledge = new Latch();
      const receiptStarted = new Latch();
      const originalReceipt = events.evidenceReceipt.bind(events);
      const originalPut = events.putIfAbsent.bind(events);
      const receipts: EvidenceReceipt[] = [];
      const boundaryEvents: RunEvent[] = [];
      const terminalResults: PutIfAbsentResult[] = [];
      events.putIfAbsent = async (event: NewRunEvent, options?: PutIfAbsentOptions) => {
        const result = await originalPut(event, options);
        if (event.event_type === "run.terminal") {
          terminalResults.push(result);
          terminalWritten.set();
          await acknowledge.wait();
        }
        return result;
      };
      events.evidenceReceipt = async (threadId, runId) => {
        receiptStarted.set();
        const receipt = await originalReceipt(threadId, runId);
        receipts.push(receipt);
        boundaryEvents.push(...(await events.listEvents(threadId, runId)));
        receiptEntered.set();
        await releaseReceipt.wait();
        return receipt;
      };
      const run = await start();
      try {
        await within(terminalWritten.wait(), 5000, "the worker never wrote its terminal");
        expect(receiptStarted.isSet, "receipt started while the terminal ACK was withheld").toBe(
          false,
        );
        expect((await runs.get(run.record.runId))?.evidence_seal_state).toBe("pending");
        acknowledge.set();
        await within(receiptEntered.wait(), 5000, "receipt never started");
        expect(run.manager.hasFinalTerminalAck(run.record)).toBe(true);
        expect((await runs.get(run.record.runId))?.evidence_seal_state).toBe("pending");
      } finally {
        acknowledge.set();
        releaseReceipt.set();
      }
      await settled(run.task);
      events.putIfAbsent = originalPut;
      events.evidenceReceipt = originalReceipt;
      const row = await runs.get(run.record.runId);
      expect(row?.evidence_seal_state).toBe("sealed");
      expect(receipts).toHaveLength(1);
      const receipt = receipts[0];
      expect(row?.evidence_upper_seq).toBe(receipt?.upperEventSeq);
      expect(row?.evidence_event_count).toBe(receipt?.eventCount);
      expect(receipt?.eventCount).toBe(boundaryEvents.length);
      const terminal = confirmedTerminal(
        boundaryEvents.filter((e) => e.event_type === "run.terminal"),
        run.record,
        "success",
      );
      expect(terminalResults, "terminal evidence must use the run-scoped singleton").toHaveLength(
        1,
      );
      expect(terminalResults[0]?.event).toEqual(terminal);
      expect(terminal.seq).toBeLessThanOrEqual(receipt?.upperEventSeq ?? -1);
      expect((await terminalEvents(run.record))[0]).toEqual(terminal);
    });

    for (const backend of ["memory", "jsonl", "shared"] as const) {
      for (const heartbeatEnabled of [false, true]) {
        it(`terminal publication supports default and owned workers [${backend}, heartbeat ${heartbeatEnabled}]`, async () => {
          const store: RunEventStore =
            backend === "memory"
              ? new MemoryRunEventStore()
              : backend === "jsonl"
                ? new JsonlRunEventStore(join(root, "events"))
                : events;
          const run = await start({ eventStore: store, heartbeatEnabled, userId: "alice" });
          await settled(run.task);
          const list = await store.listEvents(run.record.threadId, run.record.runId, {
            eventTypes: ["run.terminal"],
            userId: "alice",
          });
          const terminal = confirmedTerminal(list, run.record, "success");
          expect(terminal.user_id).toBe("alice");
          expect(
            await store.listEvents(run.record.threadId, run.record.runId, {
              eventTypes: ["run.terminal"],
              userId: "bob",
            }),
          ).toEqual([]);
        });
      }
    }

    it("terminal ack loss confirms existing without duplicate", async () => {
      const original = events.putIfAbsent.bind(events);
      const results: PutIfAbsentResult[] = [];
      events.putIfAbsent = async (event, options) => {
        const result = await original(event, options);
        if (event.event_type === "run.terminal") {
          results.push(result);
          if (results.length === 1) throw new Error("Terminal commit acknowledgement lost");
        }
        return result;
      };
      const run = await start();
      await settled(run.task);
      events.putIfAbsent = original;
      const terminal = confirmedTerminal(await terminalEvents(run.record), run.record, "success");
      expect(results).toHaveLength(2);
      expect(results[0]).toEqual({ event: terminal, created: true });
      expect(results[1]).toEqual({ event: terminal, created: false });
      expect((await runs.get(run.record.runId))?.evidence_seal_state).toBe("sealed");
    });

    it.each([
      ["status", "error"],
      ["protocol_version", 2],
      ["protocol_version", true],
      ["category", "outputs"],
      ["recovered", "false"],
      ["user_id", "bob"],
    ] as const)(
      "conflicting terminal preserves record and business status [%s=%s]",
      async (field, value) => {
        const existing: RunEvent[] = [];
        const run = await start({
          userId: "alice",
          beforeStart: async (record) => {
            const event: NewRunEvent = {
              thread_id: record.threadId,
              run_id: record.runId,
              event_type: "run.terminal",
              category: field === "category" ? String(value) : "trace",
              content: { status: field === "status" ? value : "success" },
              metadata: {
                protocol_version: field === "protocol_version" ? value : 1,
                recovered: field === "recovered" ? value : false,
              },
              user_id: field === "user_id" ? String(value) : "alice",
            };
            existing.push(...(await events.putBatch([event])));
          },
        });
        await settled(run.task);
        const row = await runs.get(run.record.runId);
        expect(row?.status).toBe("success");
        expect(row?.evidence_seal_state).toBe("partial");
        expect(row?.evidence_seal_error).toContain("CONFLICT");
        expect(await terminalEvents(run.record)).toEqual(existing);
        expect(run.bridge.hasEnded(run.record.runId)).toBe(true);
        const replacement = await run.manager.createOrReject(run.record.threadId, {
          userId: "alice",
        });
        expect(replacement.runId).not.toBe(run.record.runId);
      },
    );

    it.each(["unknown", "cancelled", "malformed"] as const)(
      "unconfirmed terminal does not seal or block stream end [%s]",
      async (failure) => {
        const original = events.putIfAbsent.bind(events);
        const attempts: NewRunEvent[] = [];
        events.putIfAbsent = async (event, options) => {
          if (event.event_type === "run.terminal") {
            attempts.push(event);
            if (failure === "unknown") throw new Error("Terminal write unavailable");
            if (failure === "cancelled") throw new CancelledError();
            return null as unknown as PutIfAbsentResult;
          }
          return original(event, options);
        };
        const run = await start();
        await settled(run.task, { allowCancelled: true });
        events.putIfAbsent = original;
        const row = await runs.get(run.record.runId);
        expect(row?.status).toBe("success");
        expect(row?.evidence_seal_state).toBe("partial");
        expect(row?.evidence_seal_error).toBeTruthy();
        expect(await terminalEvents(run.record)).toEqual([]);
        expect(run.bridge.hasEnded(run.record.runId)).toBe(true);
        expect(attempts).toHaveLength(failure === "unknown" ? 2 : 1);
      },
    );

    it.each([false, null] as const)(
      "matching terminal row without commit ack cannot authorize event [ack=%s]",
      async (ack) => {
        const original = runs.updateStatus.bind(runs);
        const terminalStatuses: RunStatus[] = ["success", "error", "interrupted", "timeout"];
        runs.updateStatus = async (runId, status, update) => {
          const result = await original(runId, status, update);
          return terminalStatuses.includes(status) ? ack : result;
        };
        const run = await start({ heartbeatEnabled: false });
        await settled(run.task);
        runs.updateStatus = original;
        const row = await runs.get(run.record.runId);
        expect(row?.status).toBe("success");
        expect(run.manager.hasFinalTerminalAck(run.record)).toBe(false);
        expect(await terminalEvents(run.record)).toEqual([]);
        expect(row?.evidence_seal_state).toBe("partial");
        expect(row?.evidence_seal_error).toBe(
          "Terminal event lacks an attributable final commit ACK",
        );
      },
    );

    it("orphan recovery claim backfills error terminal", async () => {
      const record = await putExpiredRun();
      const recovered = await reconcile(recoveryManager());
      expect(recovered.map((r) => r.runId)).toEqual([record.runId]);
      expect((await runs.get(record.runId))?.status).toBe("error");
      confirmedTerminal(await terminalEvents(record), record, "error", true);
    });

    it("losing orphan recovery claim does not publish terminal", async () => {
      const record = await putExpiredRun();
      const manager = recoveryManager();
      const originalScan = runs.listInflightWithExpiredLease.bind(runs);
      runs.listInflightWithExpiredLease = async (options) => {
        const rows = await originalScan(options);
        await runs.renewLease(
          record.runId,
          "dead-owner",
          new Date(Date.now() + 60_000).toISOString(),
        );
        return rows;
      };
      const recovered = await reconcile(manager, "must not win");
      runs.listInflightWithExpiredLease = originalScan;
      expect(recovered).toEqual([]);
      expect((await runs.get(record.runId))?.status).toBe("running");
      expect(await terminalEvents(record)).toEqual([]);
    });

    it("non-local cancel takeover backfills error terminal", async () => {
      const record = await putExpiredRun({ userId: DEFAULT_USER_ID });
      const outcome = await recoveryManager().cancel(record.runId);
      expect(outcome).toBe("taken_over");
      expect((await runs.get(record.runId))?.status).toBe("error");
      const delivery = await events.listEvents(record.threadId, record.runId, {
        eventTypes: ["run.delivery"],
        userId: null,
      });
      const terminal = await terminalEvents(record);
      expect(delivery).toHaveLength(1);
      confirmedTerminal(terminal, record, "error", true);
      expect(delivery[0]?.seq).toBeLessThan(terminal[0]?.seq ?? -1);
    });

    it.each(["event_store", "unexpected"] as const)(
      "non-local cancel returns taken_over when terminal publish fails [%s]",
      async (failure) => {
        const record = await putExpiredRun({ userId: DEFAULT_USER_ID });
        const manager = recoveryManager();
        const attempts: NewRunEvent[] = [];
        const original = events.putIfAbsent.bind(events);
        if (failure === "event_store") {
          events.putIfAbsent = async (event, options) => {
            if (event.event_type === "run.terminal") {
              attempts.push(event);
              throw new Error("terminal event unavailable");
            }
            return original(event, options);
          };
        } else {
          manager.confirmTerminal = async () => {
            throw new Error("unexpected confirmation failure");
          };
        }
        const outcome = await manager.cancel(record.runId);
        events.putIfAbsent = original;
        expect(outcome).toBe("taken_over");
        expect(attempts).toHaveLength(failure === "event_store" ? 2 : 0);
        const row = await runs.get(record.runId);
        expect(row?.status).toBe("error");
        expect(row?.evidence_seal_state).toBe("partial");
        expect(await terminalEvents(record)).toEqual([]);
      },
    );

    it("non-run takeover claim does not publish terminal", async () => {
      const record = await putExpiredRun({ operationKind: "checkpoint_write" });
      const recovered = await reconcile(recoveryManager(), "checkpoint write recovered");
      expect(recovered).toEqual([]);
      expect((await runs.get(record.runId))?.status).toBe("error");
      expect(await terminalEvents(record)).toEqual([]);
    });

    it("concurrent orphan recovery only winner publishes terminal", async () => {
      const record = await putExpiredRun();
      const results = await Promise.all([
        reconcile(recoveryManager()),
        reconcile(recoveryManager()),
      ]);
      expect(results.reduce((total, list) => total + list.length, 0)).toBe(1);
      expect((await runs.get(record.runId))?.status).toBe("error");
      confirmedTerminal(await terminalEvents(record), record, "error", true);
    });

    it.each(["unknown", "conflict", "lost_ack"] as const)(
      "recovery terminal failure never changes committed takeover [%s]",
      async (failure) => {
        const record = await putExpiredRun();
        const manager = recoveryManager();
        const attempts: unknown[] = [];
        let existing: RunEvent | null = null;
        if (failure === "conflict") {
          existing = await events.put({
            thread_id: record.threadId,
            run_id: record.runId,
            event_type: "run.terminal",
            category: "trace",
            content: { status: "success" },
            metadata: { protocol_version: 1, recovered: false },
          });
        }
        const original = events.putIfAbsent.bind(events);
        events.putIfAbsent = async (event, options) => {
          if (event.event_type !== "run.terminal") return original(event, options);
          if (failure === "unknown") {
            attempts.push(event);
            throw new Error("terminal store unavailable");
          }
          if (failure === "lost_ack") {
            const result = await original(event, options);
            attempts.push(result);
            if (attempts.length === 1) throw new Error("terminal ACK lost after commit");
            return result;
          }
          return original(event, options);
        };
        const recovered = await reconcile(manager);
        events.putIfAbsent = original;
        expect(recovered.map((r) => r.runId)).toEqual([record.runId]);
        const row = await runs.get(record.runId);
        expect(row?.status).toBe("error");
        expect(row?.evidence_seal_state).toBe("partial");
        const terminal = await terminalEvents(record);
        if (failure === "unknown") {
          expect(attempts).toHaveLength(2);
          expect(terminal).toEqual([]);
        } else if (failure === "conflict") {
          expect(terminal).toEqual([existing]);
        } else {
          expect(attempts).toHaveLength(2);
          confirmedTerminal(terminal, record, "error", true);
        }
      },
    );

    it("orphan recovery unexpected publisher error preserves recovery flow", async () => {
      const record = await putExpiredRun();
      const manager = recoveryManager();
      manager.confirmTerminal = async () => {
        throw new Error("unexpected confirmation failure");
      };
      const recovered = await reconcile(manager);
      expect(recovered.map((r) => r.runId)).toEqual([record.runId]);
      const row = await runs.get(record.runId);
      expect(row?.status).toBe("error");
      expect(row?.evidence_seal_state).toBe("partial");
      expect(await terminalEvents(record)).toEqual([]);
      const delivery = await events.listEvents(record.threadId, record.runId, {
        eventTypes: ["run.delivery"],
        userId: null,
      });
      expect(delivery).toHaveLength(1);
    });

    it("recovery publication cannot resurrect deleted thread", async () => {
      const record = await putExpiredRun();
      const manager = recoveryManager();
      const publishing = new Latch();
      const release = new Latch();
      manager.confirmTerminal = async (...args) => {
        publishing.set();
        await release.wait();
        return confirmTerminalEvent(...args);
      };
      const recovery = reconcile(manager);
      try {
        await within(publishing.wait(), 5000, "recovery never reached the terminal write");
        await runs.deleteByThread(record.threadId, { userId: record.userId });
        await events.deleteByThread(record.threadId, { userId: record.userId });
      } finally {
        release.set();
      }
      const recovered = await within(recovery, 5000, "recovery did not finish");
      expect(recovered.map((r) => r.runId)).toEqual([record.runId]);
      expect(await runs.get(record.runId)).toBeNull();
      expect(await events.listEvents(record.threadId, record.runId, { userId: null })).toEqual([]);
      expect(await events.listMessages(record.threadId, { userId: null })).toEqual([]);
    });

    it("recovery delivery receipt precedes terminal", async () => {
      const record = await putExpiredRun();
      const recovered = await reconcile(recoveryManager());
      expect(recovered.map((r) => r.runId)).toEqual([record.runId]);
      const delivery = await events.listEvents(record.threadId, record.runId, {
        eventTypes: ["run.delivery"],
        userId: null,
      });
      const terminal = await terminalEvents(record);
      expect(delivery).toHaveLength(1);
      expect(delivery[0]?.user_id).toBe(record.userId);
      confirmedTerminal(terminal, record, "error", true);
      expect(delivery[0]?.seq).toBeLessThan(terminal[0]?.seq ?? -1);
    });

    it("recovery delivery receipt failure does not block terminal", async () => {
      const record = await putExpiredRun();
      const original = events.putIfAbsent.bind(events);
      events.putIfAbsent = async (event, options) => {
        if (event.event_type === "run.delivery") throw new Error("delivery receipt unavailable");
        return original(event, options);
      };
      const recovered = await reconcile(recoveryManager());
      events.putIfAbsent = original;
      expect(recovered.map((r) => r.runId)).toEqual([record.runId]);
      expect(
        await events.listEvents(record.threadId, record.runId, {
          eventTypes: ["run.delivery"],
          userId: null,
        }),
      ).toEqual([]);
      confirmedTerminal(await terminalEvents(record), record, "error", true);
    });

    it("recovery accepts existing owner terminal without rewriting source", async () => {
      const record = await putExpiredRun();
      const { event: ownerEvent, created } = await events.putIfAbsent({
        thread_id: record.threadId,
        run_id: record.runId,
        event_type: "run.terminal",
        category: "trace",
        content: { status: "error" },
        metadata: { protocol_version: 1, recovered: false },
        user_id: record.userId,
      });
      expect(created).toBe(true);
      const recovered = await reconcile(recoveryManager());
      expect(recovered.map((r) => r.runId)).toEqual([record.runId]);
      const terminal = await terminalEvents(record);
      expect(terminal).toEqual([ownerEvent]);
      expect(terminal[0]?.metadata.recovered).toBe(false);
    });
  },
);

/**
 * Seed 004 `test_process_local_terminal_proof_allows_later_staged_outcome`. The reference runs it
 * on a manager without a store, where re-committing a finished run's status is always
 * acknowledged. Every Fawn manager has a durable store (here the memory one), and a store keeps a
 * committed `success` final: staging a later outcome is still allowed and withdraws the terminal
 * proof at once, but persisting it is refused, so no `run.terminal` may state either status.
 */
describe("process-local terminal proof (seed 004)", () => {
  for (const heartbeatEnabled of [false, true]) {
    for (const status of ["error", "interrupted", "timeout"] as const) {
      it(`process-local terminal proof allows later staged outcome [heartbeat ${heartbeatEnabled}, ${status}]`, async () => {
        const manager = new RunManager({
          store: new MemoryRunStore(),
          ownership: { heartbeatEnabled },
        });
        const record = await manager.createOrReject("local-terminal");
        await manager.setStatus(record.runId, "success");
        expect(manager.terminalEventStatus(record)).toBe("success");
        await manager.setStatus(record.runId, status, {
          error: "Later terminal outcome",
          persist: false,
        });
        expect(record.status).toBe(status);
        expect(record.error).toBe("Later terminal outcome");
        expect(manager.terminalEventStatus(record)).toBeNull();
        expect(await manager.persistCurrentStatus(record.runId)).toBe(false);
        expect((await manager.store.get(record.runId))?.status).toBe("success");
        expect(manager.terminalEventStatus(record)).toBeNull();
      });
    }
  }
});
