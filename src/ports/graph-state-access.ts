import type { CheckpointMetadata } from "@langchain/langgraph-checkpoint";

/*
 * Thread state as a served graph sees it. LangGraph computes `next`, `tasks` (with their path,
 * result, interrupts and subgraph state) and reducer defaults from the compiled graph, so the
 * gateway asks the graph instead of decoding checkpoints itself. Shapes are LangGraph.js's own
 * (`StateSnapshot`), narrowed to what the API reads.
 */

/** LangGraph's `RunnableConfig`, as far as thread state needs it. */
export interface StateConfig {
  configurable?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One pending or attempted task of a snapshot (LangGraph's `PregelTaskDescription`). */
export interface StateTask {
  id: string;
  name: string;
  path?: readonly unknown[];
  error?: unknown;
  interrupts: readonly unknown[];
  /** A subgraph task's own state (when asked for with `subgraphs`), or its checkpoint config. */
  state?: StateSnapshotView | StateConfig;
  result?: unknown;
}

/** LangGraph's `StateSnapshot`. */
export interface StateSnapshotView {
  values: unknown;
  next: readonly string[];
  config: StateConfig;
  metadata?: CheckpointMetadata;
  createdAt?: string;
  parentConfig?: StateConfig;
  tasks: readonly StateTask[];
}

export interface StateHistoryOptions {
  limit?: number;
  before?: StateConfig;
  filter?: Record<string, unknown>;
}

/** One superstep of `bulkUpdate`: updates applied together, as if by these nodes. */
export interface StateSuperstep {
  updates: { values?: unknown; asNode?: string }[];
}

export interface GraphStateAccess {
  getState(config: StateConfig, options?: { subgraphs?: boolean }): Promise<StateSnapshotView>;
  getStateHistory(
    config: StateConfig,
    options?: StateHistoryOptions,
  ): AsyncIterable<StateSnapshotView>;
  /** Writes `values` as node `asNode` would (its reducers apply); returns the new checkpoint's config. */
  updateState(config: StateConfig, values: unknown, asNode?: string): Promise<StateConfig>;
  bulkUpdateState(config: StateConfig, supersteps: StateSuperstep[]): Promise<StateConfig>;
}
