import type { BaseMessage } from "@langchain/core/messages";
import { AIMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { StreamingAgent } from "../runtime/worker/run-context.js";
import type { AgentDescription } from "./assistants/assistant-catalog.js";

/**
 * The placeholder graph `fawn serve` runs until the real lead agent is wired in: a real LangGraph
 * StateGraph over MessagesAnnotation whose one node answers `echo: <last human text>`.
 */
export function buildEchoGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("echo", async (state) => ({
      messages: [new AIMessage(`echo: ${lastHumanText(state.messages)}`)],
    }))
    .addEdge(START, "echo")
    .addEdge("echo", END)
    .compile({ checkpointer, name: "lead_agent" });
}

export const ECHO_AGENT_DESCRIPTION: AgentDescription = {
  kind: "echo",
  name: "lead_agent",
  description: "Built-in echo graph (placeholder for the lead agent): replies 'echo: <your text>'.",
  graph: {
    nodes: [
      { id: "__start__", name: "__start__" },
      { id: "echo", name: "echo" },
      { id: "__end__", name: "__end__" },
    ],
    edges: [
      { source: "__start__", target: "echo" },
      { source: "echo", target: "__end__" },
    ],
  },
};

function lastHumanText(messages: BaseMessage[]): string {
  const human = [...messages].reverse().find((m) => m.getType() === "human");
  if (!human) return "";
  return typeof human.content === "string"
    ? human.content
    : human.content.map((block) => ("text" in block ? String(block.text) : "")).join("");
}

/** Anything with LangGraph's `stream(input, options)`. */
interface GraphLike {
  stream(input: never, options: never): Promise<AsyncIterable<unknown>>;
}

/**
 * Adapt a compiled LangGraph graph to the worker's `StreamingAgent`: the worker's options use
 * LangGraph.js names already, so they pass through.
 */
export function streamingAgentFromGraph(graph: GraphLike): StreamingAgent {
  return {
    stream: (input, options) =>
      graph.stream(
        input as never,
        { ...options, callbacks: options.callbacks as RunnableConfig["callbacks"] } as never,
      ),
  };
}
