import { AIMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import {
  Annotation,
  END,
  interrupt,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { CompiledLike } from "./stream-gateway.js";

/** A failure with its own class name, as a graph's custom error. */
export class CustomError extends Error {
  override name = "CustomError";
}

/** `agent` (a chat model streaming "hello") then `echo` (a message no model streamed). */
function chatGraph(checkpointer: BaseCheckpointSaver): CompiledLike {
  const model = new FakeListChatModel({ responses: ["hello"] });
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode("echo", () => ({ messages: [new AIMessage({ content: "echoed", id: "echo-1" })] }))
    .addEdge(START, "agent")
    .addEdge("agent", "echo")
    .addEdge("echo", END)
    .compile({ checkpointer });
}

const Counter = Annotation.Root({
  steps: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  answer: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
});

/** `first` → `second` → `third`: static breakpoints stop between them. */
function stepsGraph(checkpointer: BaseCheckpointSaver): CompiledLike {
  return new StateGraph(Counter)
    .addNode("first", () => ({ steps: ["first"] }))
    .addNode("second", () => ({ steps: ["second"] }))
    .addNode("third", () => ({ steps: ["third"] }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", "third")
    .addEdge("third", END)
    .compile({ checkpointer });
}

/** `ask` calls `interrupt()`; the resume value becomes `answer`. */
function askGraph(checkpointer: BaseCheckpointSaver): CompiledLike {
  return new StateGraph(Counter)
    .addNode("ask", () => ({ answer: String(interrupt({ question: "name?" })), steps: ["ask"] }))
    .addEdge(START, "ask")
    .addEdge("ask", END)
    .compile({ checkpointer });
}

/** `boom` throws a `CustomError`. */
function failingGraph(checkpointer: BaseCheckpointSaver): CompiledLike {
  return new StateGraph(Counter)
    .addNode("boom", () => {
      throw new CustomError("Boo!");
    })
    .addEdge(START, "boom")
    .addEdge("boom", END)
    .compile({ checkpointer });
}

/** `loop` never ends: a recursion limit stops it with `GraphRecursionError`. */
function loopGraph(checkpointer: BaseCheckpointSaver): CompiledLike {
  return new StateGraph(Counter)
    .addNode("loop", () => ({ steps: ["loop"] }))
    .addEdge(START, "loop")
    .addEdge("loop", "loop")
    .compile({ checkpointer });
}

/** The graph runs a subgraph as its `inner` node; its `leaf` writes a custom chunk. */
function nestedGraph(checkpointer: BaseCheckpointSaver): CompiledLike {
  const inner = new StateGraph(Counter)
    .addNode("leaf", (_state, config: LangGraphRunnableConfig) => {
      config.writer?.({ from: "leaf" });
      return { steps: ["leaf"] };
    })
    .addEdge(START, "leaf")
    .addEdge("leaf", END)
    .compile();
  return new StateGraph(Counter)
    .addNode("inner", inner)
    .addEdge(START, "inner")
    .addEdge("inner", END)
    .compile({ checkpointer });
}

/** The chat graph as the `inner` node of a messages graph. */
function nestedChatGraph(checkpointer: BaseCheckpointSaver): CompiledLike {
  const model = new FakeListChatModel({ responses: ["hey"] });
  const inner = new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, "agent")
    .addEdge("agent", END)
    .compile();
  return new StateGraph(MessagesAnnotation)
    .addNode("inner", inner)
    .addEdge(START, "inner")
    .addEdge("inner", END)
    .compile({ checkpointer });
}

const GRAPHS: Record<string, (checkpointer: BaseCheckpointSaver) => CompiledLike> = {
  chat: chatGraph,
  steps: stepsGraph,
  ask: askGraph,
  failing: failingGraph,
  loop: loopGraph,
  nested: nestedGraph,
  nestedChat: nestedChatGraph,
};

/** The test graph a run's `configurable.graph` names (`chat` by default). */
export function testGraph(
  config: Record<string, unknown>,
  checkpointer: BaseCheckpointSaver,
): CompiledLike {
  const configurable = config.configurable as Record<string, unknown> | undefined;
  const name = configurable?.graph;
  const build = GRAPHS[typeof name === "string" ? name : "chat"];
  if (!build) throw new Error(`no test graph ${String(name)}`);
  return build(checkpointer);
}
