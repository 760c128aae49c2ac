import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import {
  END,
  interrupt,
  type LangGraphRunnableConfig,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { StreamingAgent } from "../../../src/ports/agent.js";
import { Latch } from "../../helpers/latch.js";

/**
 * The graph the gateway suites run. Words of the last human message steer it:
 * - `fail` → the node throws;
 * - `hold:<name>` → after answering, waits on latch `<name>` (or the run's abort);
 * - `ask` → pauses on `interrupt()`; resuming answers `answer: <resume value>`;
 * - `burst:<n>` → writes n custom events before answering (default one);
 * Every run answers `echo: <text>`.
 */
export class GraphControls {
  private readonly latches = new Map<string, Latch>();
  private readonly arrivals = new Map<string, Latch>();

  /** Resolves once a run reached `hold:<name>`. */
  arrived(name: string): Promise<void> {
    return this.arrival(name).wait();
  }

  release(name: string): void {
    this.latch(name).set();
  }

  releaseAll(): void {
    for (const latch of this.latches.values()) latch.set();
  }

  latch(name: string): Latch {
    let latch = this.latches.get(name);
    if (!latch) {
      latch = new Latch();
      this.latches.set(name, latch);
    }
    return latch;
  }

  arrival(name: string): Latch {
    let latch = this.arrivals.get(name);
    if (!latch) {
      latch = new Latch();
      this.arrivals.set(name, latch);
    }
    return latch;
  }
}

function lastHumanText(messages: BaseMessage[]): string {
  const human = [...messages].reverse().find((m) => m.getType() === "human");
  return typeof human?.content === "string" ? human.content : "";
}

function holdName(text: string): string | null {
  const word = text.split(/\s+/).find((w) => w.startsWith("hold:"));
  return word === undefined ? null : word.slice("hold:".length);
}

function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal || signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

export function buildTestGraph(checkpointer: BaseCheckpointSaver, controls: GraphControls) {
  return new StateGraph(MessagesAnnotation)
    .addNode("respond", async (state, config: LangGraphRunnableConfig) => {
      const text = lastHumanText(state.messages);
      if (text === "fail") throw new Error("graph exploded on purpose");
      const burst = /(?:^|\s)burst:(\d+)(?:\s|$)/.exec(text);
      const count = burst ? Number(burst[1]) : 1;
      for (let i = 0; i < count; i += 1) config.writer?.({ type: "progress", index: i, text });
      return { messages: [new AIMessage(`echo: ${text}`)] };
    })
    .addNode("hold", async (state, config: LangGraphRunnableConfig) => {
      const name = holdName(lastHumanText(state.messages)) ?? "";
      controls.arrival(name).set();
      await Promise.race([controls.latch(name).wait(), untilAborted(config.signal)]);
      return {};
    })
    .addNode("ask", async () => {
      const answer: unknown = interrupt({ question: "continue?" });
      return { messages: [new AIMessage(`answer: ${String(answer)}`)] };
    })
    .addConditionalEdges(
      "respond",
      (state) => {
        const text = lastHumanText(state.messages);
        if (holdName(text) !== null) return "hold";
        if (text === "ask") return "ask";
        return END;
      },
      ["hold", "ask", END],
    )
    .addEdge(START, "respond")
    .addEdge("hold", END)
    .addEdge("ask", END)
    .compile({ checkpointer });
}

/** Anything with LangGraph's `stream(input, options)`. */
interface GraphLike {
  stream(input: never, options: never): Promise<AsyncIterable<unknown>>;
}

/** The worker's options already use LangGraph.js names, so they pass straight through. */
export function streamingAgentFromGraph(graph: GraphLike): StreamingAgent {
  return { stream: (input, options) => graph.stream(input as never, options as never) };
}
