import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { GraphStateAccess, StateSnapshotView } from "../ports/graph-state-access.js";

/** What state access needs of a compiled LangGraph.js graph (a `Pregel`). */
export interface CompiledGraphLike {
  checkpointer?: unknown;
  store?: unknown;
  withConfig(config: Record<string, never>): CompiledGraphLike;
  getState(config: object, options?: { subgraphs?: boolean }): Promise<unknown>;
  getStateHistory(config: object, options?: object): AsyncIterable<unknown>;
  updateState(config: object, values: unknown, asNode?: string): Promise<unknown>;
  bulkUpdateState(config: object, supersteps: object[]): Promise<unknown>;
}

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
      (await bound.updateState(config, values, asNode)) as {
        configurable?: Record<string, unknown>;
      },
    bulkUpdateState: async (config, supersteps) =>
      (await bound.bulkUpdateState(config, supersteps)) as {
        configurable?: Record<string, unknown>;
      },
  };
}
