/**
 * Rollback, branching from an older checkpoint and thread deletion through the run runtime
 * (RunService → RunManager → worker → finalizer) with SqlCheckpointSaver sharing the SQL stores'
 * database, on SQLite and PostgreSQL. After each scenario the checkpoint tables must be sound
 * (no orphaned message rows, no dangling list references).
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StreamingAgent } from "../../src/ports/agent.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import type { RunRecord } from "../../src/runtime/run-record.js";
import { RunService } from "../../src/runtime/run-service.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { SqlCheckpointSaver } from "../../src/stores/sql/checkpoint/sql-checkpoint-saver.js";
import { openSqlStores, type SqlStores } from "../../src/stores/sql/stores.js";
import { Latch, within } from "../helpers/latch.js";
import { checkpointBackends } from "./backends.js";
import { countRows, integrityProblems } from "./checkpoint-tables.js";

const holds = new Map<string, Latch>();

function lastHumanText(messages: BaseMessage[]): string {
  const human = [...messages].reverse().find((m) => m.getType() === "human");
  return typeof human?.content === "string" ? human.content : "";
}

function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal || signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** respond → hold: `hold` waits on a latch named after the last human text, or the abort. */
function buildGraph(checkpointer: SqlCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("respond", async (state) => ({
      messages: [new AIMessage(`echo: ${lastHumanText(state.messages)}`)],
    }))
    .addNode("hold", async (state, config: RunnableConfig) => {
      const latch = holds.get(lastHumanText(state.messages));
      if (latch) await Promise.race([latch.wait(), waitForAbort(config.signal)]);
      return {};
    })
    .addEdge(START, "respond")
    .addEdge("respond", "hold")
    .addEdge("hold", END)
    .compile({ checkpointer });
}

function asAgent(graph: ReturnType<typeof buildGraph>): StreamingAgent {
  return {
    stream: (input, options) =>
      graph.stream(input as { messages: BaseMessage[] }, {
        configurable: options.configurable,
        streamMode: "values",
        signal: options.signal,
      }),
  };
}

const backends = await checkpointBackends("checkpoint_runtime");

describe.each(backends)("checkpoint scenarios through the run runtime ($name)", (backend) => {
  let stores: SqlStores;
  let saver: SqlCheckpointSaver;
  let service: RunService;
  let prefix: string;

  beforeEach(async () => {
    stores = await openSqlStores(backend.url());
    saver = new SqlCheckpointSaver(stores.database);
    const graph = buildGraph(saver);
    service = new RunService({
      manager: new RunManager({ store: stores.runs }),
      bridge: new MemoryStreamBridge(),
      ctx: {
        checkpointer: saver,
        eventStore: stores.events,
        threadStore: stores.threads,
        spawnHousekeeping: () => undefined,
      },
      agentFactory: () => asAgent(graph),
    });
    holds.clear();
    prefix = `${backend.name}-${Math.random().toString(36).slice(2, 8)}`;
  });

  afterEach(async () => {
    for (const latch of holds.values()) latch.set();
    await service.manager.shutdown({ timeoutMs: 5000 });
    expect(await integrityProblems(stores.database)).toEqual([]);
    await stores.close();
  });

  function submit(threadId: string, text: string, config?: Record<string, unknown>) {
    return service.submit({
      threadId,
      multitaskStrategy: "reject",
      invocation: {
        input: { messages: [new HumanMessage(text)] },
        stream_mode: ["values"],
        ...(config ? { config } : {}),
      },
    });
  }

  async function finish(record: RunRecord): Promise<string | undefined> {
    await within(
      record.task ? record.task.settled().then(() => undefined) : Promise.resolve(),
      10_000,
      `run ${record.runId} did not finish`,
    );
    return (await stores.runs.get(record.runId))?.status;
  }

  async function messagesOf(threadId: string, checkpointId?: string): Promise<string[]> {
    const tuple = await saver.getTuple({
      configurable: {
        thread_id: threadId,
        checkpoint_ns: "",
        ...(checkpointId ? { checkpoint_id: checkpointId } : {}),
      },
    });
    const messages = (tuple?.checkpoint.channel_values.messages ?? []) as BaseMessage[];
    return messages.map((m) => `${m.getType()}:${String(m.content)}`);
  }

  async function headId(threadId: string): Promise<string> {
    const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
    const id = tuple?.config.configurable?.checkpoint_id;
    if (typeof id !== "string") throw new Error(`thread ${threadId} has no checkpoint`);
    return id;
  }

  async function untilMessages(threadId: string, count: number): Promise<void> {
    while ((await messagesOf(threadId)).length < count) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it("rollback restores the pre-run messages and the next run continues from them", async () => {
    const thread = `${prefix}-rollback`;
    expect(await finish(await submit(thread, "before"))).toBe("success");
    const before = await messagesOf(thread);
    expect(before).toEqual(["human:before", "ai:echo: before"]);

    holds.set("to be undone", new Latch());
    const undone = await submit(thread, "to be undone");
    await within(untilMessages(thread, 4), 5000, "second run never wrote its reply");
    expect(await service.manager.cancel(undone.runId, { action: "rollback" })).toBe("cancelled");
    await finish(undone);
    expect(await messagesOf(thread)).toEqual(before);

    expect(await finish(await submit(thread, "after"))).toBe("success");
    expect(await messagesOf(thread)).toEqual([...before, "human:after", "ai:echo: after"]);
  });

  it("a run with checkpoint_id branches from an older checkpoint and keeps the other branch", async () => {
    const thread = `${prefix}-branch`;
    expect(await finish(await submit(thread, "one"))).toBe("success");
    const afterOne = await headId(thread);
    expect(await finish(await submit(thread, "two"))).toBe("success");
    const afterTwo = await headId(thread);

    const branch = await submit(thread, "three", { configurable: { checkpoint_id: afterOne } });
    expect(await finish(branch)).toBe("success");
    expect(await messagesOf(thread)).toEqual([
      "human:one",
      "ai:echo: one",
      "human:three",
      "ai:echo: three",
    ]);
    expect(await messagesOf(thread, afterTwo)).toEqual([
      "human:one",
      "ai:echo: one",
      "human:two",
      "ai:echo: two",
    ]);
    // The branch's first checkpoint descends from the checkpoint it was forked from.
    const lineage: string[] = [];
    let cursor: RunnableConfig | undefined = { configurable: { thread_id: thread } };
    while (cursor) {
      const tuple = await saver.getTuple(cursor);
      lineage.push(String(tuple?.config.configurable?.checkpoint_id));
      cursor = tuple?.parentConfig;
    }
    expect(lineage).toContain(afterOne);
    expect(lineage).not.toContain(afterTwo);
  });

  it("rolling back a thread's first run deletes its checkpoints, leaving other threads alone", async () => {
    const kept = `${prefix}-kept`;
    expect(await finish(await submit(kept, "stay"))).toBe("success");
    const keptRows = await countRows(stores.database, kept);

    const thread = `${prefix}-first-run`;
    holds.set("undo me", new Latch());
    const record = await submit(thread, "undo me");
    await within(untilMessages(thread, 2), 5000, "run never wrote its reply");
    expect(await service.manager.cancel(record.runId, { action: "rollback" })).toBe("cancelled");
    await finish(record);

    expect(await saver.getTuple({ configurable: { thread_id: thread } })).toBeUndefined();
    expect(Object.values(await countRows(stores.database, thread))).toEqual([0, 0, 0, 0, 0]);
    expect(await countRows(stores.database, kept)).toEqual(keptRows);
    expect(await messagesOf(kept)).toEqual(["human:stay", "ai:echo: stay"]);
  });

  it("deleteThread removes every row of a thread with history, rollbacks and branches", async () => {
    const thread = `${prefix}-delete`;
    expect(await finish(await submit(thread, "one"))).toBe("success");
    const afterOne = await headId(thread);
    expect(await finish(await submit(thread, "two"))).toBe("success");
    const branch = await submit(thread, "three", { configurable: { checkpoint_id: afterOne } });
    expect(await finish(branch)).toBe("success");
    const rows = await countRows(stores.database, thread);
    expect(rows.checkpoint_messages).toBeGreaterThan(0);

    await saver.deleteThread(thread);
    expect(Object.values(await countRows(stores.database, thread))).toEqual([0, 0, 0, 0, 0]);
    expect(await saver.getTuple({ configurable: { thread_id: thread } })).toBeUndefined();
  });
});
