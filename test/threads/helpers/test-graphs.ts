import {
  Annotation,
  END,
  interrupt,
  type LangGraphRunnableConfig,
  START,
  StateGraph,
} from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/*
 * Small LangGraph.js graphs the thread suites serve. Each is built over the saver it is given
 * (the runtime's, behind a run's fence, for runs; the gateway's for state reads).
 */

const steps = Annotation.Root({
  /** A list reducer: never written, it reads `[]`. */
  items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  note: Annotation<string>,
});

/** `__start__ → first → second → END`; each node appends its name to `items`. */
export function stepsGraph(checkpointer?: BaseCheckpointSaver) {
  return new StateGraph(steps)
    .addNode("first", () => ({ items: ["first"] }))
    .addNode("second", (state: typeof steps.State) => ({
      items: [`second after ${state.items.length}`],
    }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile(checkpointer ? { checkpointer } : {});
}

/** `ask` pauses on `interrupt()`; resuming writes the answer. */
export function askGraph(checkpointer?: BaseCheckpointSaver) {
  return new StateGraph(steps)
    .addNode("ask", () => {
      const answer: unknown = interrupt({ question: "name?" });
      return { items: [`answer ${String(answer)}`] };
    })
    .addEdge(START, "ask")
    .addEdge("ask", END)
    .compile(checkpointer ? { checkpointer } : {});
}

const inner = Annotation.Root({
  items: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/** `outer` runs a subgraph node `child` whose `inner_ask` interrupts. */
export function nestedGraph(checkpointer?: BaseCheckpointSaver) {
  const child = new StateGraph(inner)
    .addNode("inner_start", () => ({ items: ["inner start"] }))
    .addNode("inner_ask", (_state: typeof inner.State, _config: LangGraphRunnableConfig) => {
      const answer: unknown = interrupt("inner question");
      return { items: [`inner answer ${String(answer)}`] };
    })
    .addEdge(START, "inner_start")
    .addEdge("inner_start", "inner_ask")
    .addEdge("inner_ask", END)
    .compile();
  return new StateGraph(inner)
    .addNode("before", () => ({ items: ["before"] }))
    .addNode("child", child)
    .addEdge(START, "before")
    .addEdge("before", "child")
    .addEdge("child", END)
    .compile(checkpointer ? { checkpointer } : {});
}

export const TEST_GRAPHS = {
  steps: stepsGraph,
  ask: askGraph,
  nested: nestedGraph,
} as const;
export type TestGraphId = keyof typeof TEST_GRAPHS;
