import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { StreamingAgent } from "../ports/agent.js";
import { checkStreamOptions, type RecursionLimits } from "../ports/agent-stream-options.js";
import type { CompiledGraphLike } from "./compiled-graph.js";
import { withRunMetadata } from "./run-metadata-saver.js";

/** LangGraph's own default step limit: a graph written for `langgraph dev` behaves the same here. */
export const GRAPH_DEFAULT_RECURSION_LIMIT = 25;

/**
 * One run of a served graph: a copy of the compiled graph (`withConfig`; the shared instance is
 * never mutated, so concurrent runs never see each other's saver) bound to the run's fenced
 * checkpointer and the server's store. The graph's own `interruptBefore`/`interruptAfter` stay;
 * a run that names nodes replaces them, as on LangGraph's server.
 */
export function graphAgent(
  graph: CompiledGraphLike,
  run: { checkpointer?: BaseCheckpointSaver; store?: BaseStore },
  limits: RecursionLimits = {},
): StreamingAgent {
  const bound = graph.withConfig({});
  if (run.checkpointer) bound.checkpointer = withRunMetadata(run.checkpointer);
  if (run.store) bound.store = run.store;
  const checkedLimits = {
    defaultRecursionLimit: GRAPH_DEFAULT_RECURSION_LIMIT,
    ...limits,
  };
  return {
    stream: (input, options) =>
      bound.stream(input === undefined ? null : input, checkStreamOptions(options, checkedLimits)),
  };
}
