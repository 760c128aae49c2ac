import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type {
  GraphStateAccess,
  StateConfig,
  StateSnapshotView,
} from "../ports/graph-state-access.js";
import type { CompiledGraphLike } from "./compiled-graph.js";

/**
 * Thread state through a compiled graph, over `checkpointer` (and `store`). The graph is copied
 * first (`withConfig`), so concurrent requests over different savers never share one instance.
 */
export function compiledGraphState(
  graph: CompiledGraphLike,
  options: { checkpointer: BaseCheckpointSaver; store?: BaseStore },
): GraphStateAccess {
  const bound = graph.withConfig({});
  bound.checkpointer = options.checkpointer;
  if (options.store) bound.store = options.store;
  return {
    getState: async (config, getOptions) =>
      (await bound.getState(config, getOptions)) as StateSnapshotView,
    getStateHistory: (config, historyOptions) =>
      bound.getStateHistory(config, historyOptions) as AsyncIterable<StateSnapshotView>,
    updateState: async (config, values, asNode) =>
      (await bound.updateState(config, values, asNode)) as StateConfig,
    bulkUpdateState: async (config, supersteps) =>
      (await bound.bulkUpdateState(config, supersteps)) as StateConfig,
  };
}
