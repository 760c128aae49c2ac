/**
 * Runs through RunService → RunManager → worker with a real LangGraph.js StateGraph and a SQLite
 * checkpointer: success, graph error, cancel-interrupt, cancel-rollback and enqueue ordering. Each
 * run must leave exactly one terminal status, one `run.terminal` event and an ended stream.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  END,
  type LangGraphRunnableConfig,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  GRAPH_STREAM_MODES,
  type GraphStreamMode,
  type StreamingAgent,
} from "../../src/ports/agent.js";
import type { FawnStores } from "../../src/ports/fawn-stores.js";
import type { StreamItem } from "../../src/ports/stream-bridge.js";
import { RunManager } from "../../src/runtime/run-manager.js";
import type { RunRecord } from "../../src/runtime/run-record.js";
import { RunService } from "../../src/runtime/run-service.js";
import { createMemoryStores } from "../../src/stores/memory/stores.js";
import { MemoryStreamBridge } from "../../src/stores/memory/stream-bridge.js";
import { openSqlStores } from "../../src/stores/sql/stores.js";
import { Latch, within } from "../helpers/latch.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const holds = new Map<string, Latch>();
const invocationOrder: string[] = [];

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

function buildGraph(checkpointer: SqliteSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("respond", async (state, config: LangGraphRunnableConfig) => {
      const text = lastHumanText(state.messages);
      config.writer?.({ type: "progress", text });
      invocationOrder.push(text);
      if (text === "fail") throw new Error("graph exploded on purpose");
      return { messages: [new AIMessage(`echo: ${text}`)] };
    })
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

type Graph = ReturnType<typeof buildGraph>;

function asAgent(graph: Graph): StreamingAgent {
  return {
    stream: (input, options) =>
      graph.stream(input as { messages: BaseMessage[] }, {
        configurable: options.configurable,
        callbacks: options.callbacks as RunnableConfig["callbacks"],
        streamMode: options.streamMode as "values",
        subgraphs: options.subgraphs,
        signal: options.signal,
      }),
  };
}

let dir: string;
let checkpointer: SqliteSaver;
let stores: FawnStores;
let bridge: MemoryStreamBridge;
let service: RunService;

const postgres = await createPostgresTestDatabase("state_graph_runs");

type StoreFactory = (dir: string) => Promise<FawnStores>;
const backends: Array<[string, StoreFactory]> = [
  ["memory", async () => createMemoryStores()],
  ["sqlite", (root) => openSqlStores(`sqlite:${join(root, "fawn.db")}`)],
];
// Outside CI an unreachable PostgreSQL skips this backend (the helper warns loudly); in CI it fails.
if (postgres) backends.push(["postgres", () => openSqlStores(postgres.url)]);

afterAll(async () => {
  await postgres?.drop();
});

describe.each(backends)(
  "runs of a real StateGraph through manager and worker (%s stores)",
  (_name, makeStores) => {
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "fawn-graph-"));
      checkpointer = SqliteSaver.fromConnString(join(dir, "checkpoints.db"));
      stores = await makeStores(dir);
      bridge = new MemoryStreamBridge();
      const graph = buildGraph(checkpointer);
      service = new RunService({
        manager: new RunManager({ store: stores.runs }),
        bridge,
        ctx: {
          checkpointer,
          eventStore: stores.events,
          threadStore: stores.threads,
          spawnHousekeeping: () => undefined,
        },
        agentFactory: () => asAgent(graph),
      });
      holds.clear();
      invocationOrder.length = 0;
    });

    afterEach(async () => {
      for (const latch of holds.values()) latch.set();
      await service.manager.shutdown({ timeoutMs: 5000 });
      await stores.close();
      await rm(dir, { recursive: true, force: true });
    });

    async function submit(
      threadId: string,
      text: string,
      strategy: "reject" | "enqueue" = "reject",
      streamModes: GraphStreamMode[] = ["values", "updates"],
    ): Promise<RunRecord> {
      return service.submit({
        threadId,
        multitaskStrategy: strategy,
        invocation: { input: { messages: [new HumanMessage(text)] }, stream_mode: streamModes },
      });
    }

    async function collect(runId: string): Promise<StreamItem[]> {
      const items: StreamItem[] = [];
      for await (const item of bridge.subscribe(runId, { heartbeatMs: 60_000 })) {
        items.push(item);
        if (item.kind === "end" || item.kind === "gap") break;
      }
      return items;
    }

    async function finish(record: RunRecord): Promise<void> {
      await within(
        record.task ? record.task.settled().then(() => undefined) : Promise.resolve(),
        10_000,
        `run ${record.runId} did not finish`,
      );
    }

    async function expectOneTerminal(record: RunRecord, status: string): Promise<void> {
      const row = await stores.runs.get(record.runId);
      expect(row?.status).toBe(status);
      const terminals = await stores.events.listEvents(record.threadId, record.runId, {
        eventTypes: ["run.terminal"],
      });
      expect(terminals).toHaveLength(1);
      expect(terminals[0]?.content).toEqual({ status });
      expect(bridge.hasEnded(record.runId)).toBe(true);
      expect(row?.evidence_seal_state).toBe("sealed");
    }

    it("success streams values and commits success", async () => {
      const record = await submit("t-success", "hello");
      const items = await collect(record.runId);
      await finish(record);
      const names = items.flatMap((i) => (i.kind === "event" ? [i.event.event] : []));
      expect(names[0]).toBe("metadata");
      expect(names).toContain("values");
      expect(names).toContain("updates");
      expect(items.at(-1)?.kind).toBe("end");
      await expectOneTerminal(record, "success");
      expect(await threadMessages("t-success")).toEqual([
        ["human", "hello"],
        ["ai", "echo: hello"],
      ]);
      const thread = await stores.threads.get("t-success");
      expect(thread === null || thread.status === "idle").toBe(true);
    });

    it("streams every LangGraph stream mode under its own event name", async () => {
      const record = await submit("t-modes", "all modes", "reject", [...GRAPH_STREAM_MODES]);
      const items = await collect(record.runId);
      await finish(record);
      const names = new Set(items.flatMap((i) => (i.kind === "event" ? [i.event.event] : [])));
      for (const mode of [
        "metadata",
        "values",
        "updates",
        "custom",
        "debug",
        "tasks",
        "checkpoints",
        "messages",
      ]) {
        expect(names, `no "${mode}" event`).toContain(mode);
      }
      const custom = items.find((i) => i.kind === "event" && i.event.event === "custom");
      expect(custom?.kind === "event" && custom.event.data).toEqual({
        type: "progress",
        text: "all modes",
      });
      await expectOneTerminal(record, "success");
    });

    it("graph error ends the run as error with an SSE error frame", async () => {
      const record = await submit("t-error", "fail");
      const items = await collect(record.runId);
      await finish(record);
      const error = items.find((i) => i.kind === "event" && i.event.event === "error");
      expect(error?.kind === "event" && error.event.data).toMatchObject({
        message: expect.stringContaining("exploded"),
      });
      await expectOneTerminal(record, "error");
      expect((await stores.runs.get(record.runId))?.error).toContain("exploded");
    });

    it("cancel with interrupt keeps the checkpoint and ends interrupted", async () => {
      holds.set("wait here", new Latch());
      const record = await submit("t-interrupt", "wait here");
      // Cancel only once the reply is checkpointed and the graph waits in its hold node.
      await within(waitForMessages("t-interrupt", 2), 5000, "run never replied");
      expect(await service.manager.cancel(record.runId, { action: "interrupt" })).toBe("cancelled");
      await finish(record);
      await expectOneTerminal(record, "interrupted");
      expect(await threadMessages("t-interrupt")).toEqual([
        ["human", "wait here"],
        ["ai", "echo: wait here"],
      ]);
    });

    it("cancel with rollback restores the pre-run messages", async () => {
      const first = await submit("t-rollback", "before");
      await finish(first);
      const before = await threadMessages("t-rollback");
      expect(before).toEqual([
        ["human", "before"],
        ["ai", "echo: before"],
      ]);
      holds.set("to be undone", new Latch());
      const record = await submit("t-rollback", "to be undone");
      await within(waitForMessages("t-rollback", 4), 5000, "second run never wrote its reply");
      expect(await service.manager.cancel(record.runId, { action: "rollback" })).toBe("cancelled");
      await finish(record);
      await expectOneTerminal(record, "error");
      expect((await stores.runs.get(record.runId))?.error).toBe("Rolled back by user");
      expect(await threadMessages("t-rollback")).toEqual(before);
      const third = await submit("t-rollback", "after");
      await finish(third);
      expect(await threadMessages("t-rollback")).toEqual([
        ...before,
        ["human", "after"],
        ["ai", "echo: after"],
      ]);
    });

    it("enqueued runs start in order after the active one", async () => {
      const gate = new Latch();
      holds.set("first", gate);
      const first = await submit("t-queue", "first");
      await within(waitForStatus(first, "running"), 5000, "first run never started");
      const second = await submit("t-queue", "second", "enqueue");
      const third = await submit("t-queue", "third", "enqueue");
      expect((await stores.runs.get(second.runId))?.status).toBe("pending");
      expect((await stores.runs.get(third.runId))?.status).toBe("pending");
      gate.set();
      await finish(first);
      await within(waitForStatus(third, "success"), 10_000, "queued runs did not complete");
      await finish(second);
      await finish(third);
      expect(invocationOrder).toEqual(["first", "second", "third"]);
      for (const record of [first, second, third]) await expectOneTerminal(record, "success");
    });
  },
);

async function waitForStatus(record: RunRecord, status: string): Promise<void> {
  while ((await stores.runs.get(record.runId))?.status !== status) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function waitForMessages(threadId: string, count: number): Promise<void> {
  while ((await threadMessages(threadId)).length < count) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function threadMessages(threadId: string): Promise<Array<[string, unknown]>> {
  const tuple = await checkpointer.getTuple({
    configurable: { thread_id: threadId, checkpoint_ns: "" },
  });
  const messages = (tuple?.checkpoint.channel_values.messages ?? []) as BaseMessage[];
  return messages.map((m) => [m.getType(), m.content]);
}
