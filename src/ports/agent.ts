import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { Logger } from "../core/logger.js";

/*
 * What the runtime needs of an agent: something that streams like a compiled LangGraph graph,
 * built per run by an `AgentFactory`. The lead agent, a served custom graph and test doubles all
 * implement it; the runtime never imports an agent.
 */

/** The slice of the run journal a graph's middlewares write their evidence to. */
export interface EvidenceRecorder {
  recordMiddleware(
    tag: string,
    record: { name: string; hook: string; action: string; changes?: unknown },
  ): boolean;
}

/**
 * The slice of the run journal tool results reach it through (a LangChain callback): a result
 * that adds to the thread's `artifacts` (present_files) is what delivery verification counts.
 */
export interface ToolResultRecorder {
  handleToolEnd(output: unknown, runId: string, parentRunId?: string, tags?: string[]): unknown;
}

/** Anything that streams like a compiled LangGraph graph. */
export interface StreamingAgent {
  stream(
    input: unknown,
    options: AgentStreamOptions,
  ): Promise<AsyncIterable<unknown>> | AsyncIterable<unknown>;
}

export interface AgentStreamOptions {
  configurable?: Record<string, unknown>;
  callbacks?: unknown[];
  streamMode?: string | string[];
  subgraphs?: boolean;
  signal?: AbortSignal;
  interruptBefore?: string[] | "*";
  interruptAfter?: string[] | "*";
  runName?: string;
  /** The run's journal, for graphs that record middleware evidence or tool results directly. */
  journal?: (EvidenceRecorder & ToolResultRecorder) | null;
  [key: string]: unknown;
}

export type AgentFactory = (args: {
  /**
   * The graph the run executes: `lead_agent`, or the id of a graph loaded from configuration
   * (the runtime always names it; a factory of one graph may ignore it).
   */
  graphId?: string;
  config: Record<string, unknown>;
  /**
   * The checkpointer this run's graph must be compiled with, when the runtime has one: the
   * runtime's own behind the run's write fence, so the run's checkpoint writes stop the moment a
   * peer takes the run over. A factory that compiles its graph with another saver loses that.
   */
  checkpointer?: BaseCheckpointSaver;
  /** The server's LangGraph store (`/store/*`), scoped to the run's user, for graphs that use one. */
  store?: BaseStore;
  /** The run's logger: its lines carry the run, thread and user ids; the run's work logs here. */
  logger?: Logger;
}) => StreamingAgent | Promise<StreamingAgent>;

/** LangGraph stream modes the worker forwards (`messages-tuple` on the API is `messages` here). */
export const GRAPH_STREAM_MODES = [
  "values",
  "messages",
  "updates",
  "custom",
  "debug",
  "tasks",
  "checkpoints",
] as const;
export type GraphStreamMode = (typeof GRAPH_STREAM_MODES)[number];

/**
 * What a run streams: LangGraph's modes, plus two the worker derives from LangChain callbacks:
 * `events` (LangChain stream events v2) and `messages-partial` (the API's `messages` mode:
 * `messages/metadata`, `messages/partial`, `messages/complete`).
 */
export const RUN_STREAM_MODES = [...GRAPH_STREAM_MODES, "events", "messages-partial"] as const;
export type RunStreamMode = (typeof RUN_STREAM_MODES)[number];
