/*
 * A compiled LangGraph.js graph (a `Pregel`), by shape: a project's graphs may bring their own
 * copy of `@langchain/langgraph`, so `instanceof` would miss them.
 */

/** What Fawn calls on a compiled LangGraph.js graph (a `Pregel`). */
export interface CompiledGraphLike {
  builder?: unknown;
  checkpointer?: unknown;
  store?: unknown;
  interruptBefore?: unknown;
  interruptAfter?: unknown;
  withConfig(config: Record<string, never>): CompiledGraphLike;
  stream(input: unknown, options: object): Promise<AsyncIterable<unknown>>;
  getGraphAsync(config: object): Promise<{ toJSON(): unknown }>;
  getSubgraphsAsync(
    namespace?: string,
    recurse?: boolean,
  ): AsyncIterable<[string, CompiledGraphLike]>;
  getState(config: object, options?: { subgraphs?: boolean }): Promise<unknown>;
  getStateHistory(config: object, options?: object): AsyncIterable<unknown>;
  updateState(config: object, values: unknown, asNode?: string): Promise<unknown>;
  bulkUpdateState(config: object, supersteps: object[]): Promise<unknown>;
}

export function isCompiledGraph(value: unknown): value is CompiledGraphLike {
  if (typeof value !== "object" || value === null) return false;
  return ["stream", "withConfig", "getGraphAsync", "getState"].every(
    (method) => typeof Reflect.get(value, method) === "function",
  );
}
