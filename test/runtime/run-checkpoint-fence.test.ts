/**
 * A run's own checkpoint and thread-status writes under its write fence (SQLite stores, real
 * worker, a real LangGraph graph on the SQL saver). A peer takes the run over while the ex-owner
 * is still inside a graph node, or already finalizing: the ex-owner's next checkpoint put and
 * its thread-status write are refused by the stores, and it fences the run locally instead of
 * failing it (no `error` terminal of its own).
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { StreamingAgent } from "../../src/ports/agent.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import type { RunRecord } from "../../src/runtime/run-record.js";
import { startRunWorker } from "../../src/runtime/worker/run-agent.js";
import type { RunContext } from "../../src/runtime/worker/run-context.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlStores, type SqlStores } from "../../src/stores/sql/stores.js";
import { Latch, within } from "../helpers/latch.js";

let dir: string;
let stores: SqlStores;
let saver: SqlCheckpointSaver;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fawn-run-ckpt-fence-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await stores.close();
});

async function open(): Promise<void> {
  stores = await openSqlStores(`sqlite:${join(dir, `${randomUUID()}.sqlite`)}`);
  saver = new SqlCheckpointSaver(stores.database);
}

/** A two-node graph: `slow` waits for `release` (signalling `entered`), `answer` replies. */
function graph(
  checkpointer: BaseCheckpointSaver | undefined,
  entered: Latch,
  release: Latch,
): StreamingAgent {
  const compiled = new StateGraph(MessagesAnnotation)
    .addNode("slow", async () => {
      entered.set();
      await release.wait();
      return { messages: [new AIMessage({ id: "slow", content: "thinking done" })] };
    })
    .addNode("answer", async () => ({
      messages: [new AIMessage({ id: "answer", content: "done" })],
    }))
    .addEdge(START, "slow")
    .addEdge("slow", "answer")
    .addEdge("answer", END)
    .compile(checkpointer ? { checkpointer } : {});
  return {
    stream: (input, options) =>
      compiled.stream(input as { messages: BaseMessage[] }, {
        configurable: options.configurable,
        callbacks: options.callbacks as RunnableConfig["callbacks"],
        streamMode: "values",
        signal: options.signal,
      }),
  };
}

async function startRun(
  agent: (checkpointer: BaseCheckpointSaver | undefined) => StreamingAgent,
  ctx: Partial<RunContext> = {},
): Promise<{ record: RunRecord; manager: RunManager; done: Promise<void> }> {
  const manager = new RunManager({
    store: stores.runs,
    eventStore: stores.events,
    workerId: `owner-${randomUUID()}`,
    ownership: { heartbeatEnabled: false, leaseSeconds: 300, graceSeconds: 0 },
  });
  const threadId = `thread-${randomUUID()}`;
  await stores.threads.create({ thread_id: threadId, created_at: new Date().toISOString() });
  const record = await manager.createOrReject(threadId, { userId: null });
  const task = startRunWorker(new MemoryStreamBridge(), manager, record, {
    ctx: {
      checkpointer: saver,
      eventStore: stores.events,
      threadStore: stores.threads,
      spawnHousekeeping: () => undefined,
      ...ctx,
    },
    agentFactory: ({ checkpointer }) => agent(checkpointer),
    graphInput: { messages: [new HumanMessage({ id: "human", content: "hi" })] },
    config: { configurable: { thread_id: threadId } },
    streamModes: ["values"],
  });
  const done = within(task.settled(), 10_000, "the run did not settle").then(() => undefined);
  return { record, manager, done };
}

/**
 * What a peer's recovery does once the run's lease looks expired: claim the run (an active one, or
 * one whose terminal status is committed but not yet sealed) and mark the thread `error`.
 */
async function peerTakesOver(record: RunRecord, what: "active" | "unsealed"): Promise<void> {
  const claim = {
    now: new Date(Date.now() + 3_600_000).toISOString(),
    graceSeconds: 0,
    error: "peer takeover",
    workerId: "peer",
  };
  const claimed =
    what === "active"
      ? await stores.runs.claimForTakeover(record.runId, {
          ...claim,
          stopReason: "orphan_recovered",
        })
      : await stores.runs.claimUnsealedTerminal(record.runId, claim);
  expect(claimed).toBe(true);
  await stores.threads.updateStatus(record.threadId, "error", new Date().toISOString());
}

async function checkpointIds(threadId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const tuple of saver.list({ configurable: { thread_id: threadId } })) {
    ids.push(tuple.checkpoint.id);
  }
  return ids;
}

describe("a run's checkpoint and thread-status writes after a peer took the run over", () => {
  it("the ex-owner's graph writes no checkpoint and the run is fenced, not failed", async () => {
    await open();
    const [entered, release] = [new Latch(), new Latch()];
    const run = await startRun((checkpointer) => graph(checkpointer, entered, release));
    await within(entered.wait(), 10_000, "the graph did not reach its slow node");
    await peerTakesOver(run.record, "active");
    const before = await checkpointIds(run.record.threadId);
    expect(before.length).toBeGreaterThan(0);
    const eventsBefore = await stores.events.listEvents(run.record.threadId, run.record.runId);

    release.set();
    await run.done;

    expect(await checkpointIds(run.record.threadId)).toEqual(before);
    expect(run.record.ownershipLost).toBe(true);
    // Fenced by the refusal the graph's own checkpoint write rethrew out of stream().
    expect(run.record.error).toMatch(/^Refused to put (a checkpoint|pending writes)/);
    expect(await stores.events.listEvents(run.record.threadId, run.record.runId)).toEqual(
      eventsBefore,
    );
    expect((await stores.runs.get(run.record.runId))?.error).toBe("peer takeover");
    expect((await stores.threads.get(run.record.threadId))?.status).toBe("error");
  });

  it("an ex-owner already finalizing does not overwrite the thread's status", async () => {
    await open();
    const [entered, release] = [new Latch(), new Latch()];
    release.set();
    const run = await startRun((checkpointer) => graph(checkpointer, entered, release), {
      beforeStage: async (stage, record) => {
        if (stage === "thread_status") await peerTakesOver(record, "unsealed");
      },
    });
    await run.done;
    expect(run.record.ownershipLost).toBe(true);
    expect((await stores.threads.get(run.record.threadId))?.status).toBe("error");
  });
});
