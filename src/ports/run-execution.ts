import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { Json } from "../core/json/serialize.js";
import type { GraphStreamMode } from "./agent.js";
import type { NewRunEvent } from "./run-event-store.js";
import type { GraphCommandJson, RunCompletionData } from "./run-types.js";

/*
 * Execution off the HTTP thread: a run whose graph an execution worker serves is streamed there
 * (`runtime.workers`), while the run's lifecycle — admission, leases, the bridge, the journal's
 * writes, finalization — stays with the runtime on the main thread. The runtime hands over what
 * the graph needs as plain JSON and the run's savers as objects the executor serves to its
 * worker; it gets back the run's stream events, in order, and a summary of the worker's journal.
 */

/** A run as the worker needs it: everything is JSON (it crosses a thread). */
export interface RemoteRunRequest {
  runId: string;
  threadId: string;
  userId: string | null;
  graphId: string;
  /** The graph's input, or the command that resumes or steers it. */
  input: { kind: "input"; value: Json } | { kind: "command"; command: GraphCommandJson };
  /** The run's config with its identity already applied (configurable, context, the rest). */
  config: Record<string, Json>;
  plan: RemoteStreamPlan;
  subgraphs: boolean;
  interruptBefore?: string[] | "*";
  interruptAfter?: string[] | "*";
  runName: string;
  /** Whether the run keeps a journal (the server has an event store). */
  journal: boolean;
  trackTokenUsage: boolean;
}

/** `StreamPlan` in JSON: what the graph streams and what is published. */
export interface RemoteStreamPlan {
  graphModes: GraphStreamMode[];
  published: string[];
  events: boolean;
  partialMessages: boolean;
}

/**
 * The run's savers on the main thread, already bound to the run: the checkpointer is its fenced
 * view, the store is scoped to its user, event batches are written under its fence.
 */
export interface RemoteRunSavers {
  checkpointer?: BaseCheckpointSaver;
  store?: BaseStore;
  events?: { putBatch(events: readonly NewRunEvent[]): Promise<unknown> };
}

/** Where the worker's output lands on the main thread, in the order the worker produced it. */
export interface RemoteRunSink {
  /** One stream event to publish (its data already converted to JSON in the worker). */
  publish(event: string, data: Json): void;
  /** A root `custom` chunk, for the run's sub-agent evidence. */
  observeSubagent(data: Json): void;
  /** The worker's journal was written (before the run's outcome, success or failure). */
  journalEnded(summary: RemoteJournalSummary): void;
}

/** What the worker's journal leaves for the run's finalizer. */
export interface RemoteJournalSummary {
  /** False when a batch failed or was dropped: the evidence cannot be proven complete. */
  drainedCleanly: boolean;
  delivery: { presented: number; paths: string[]; by_tool: Record<string, string[]> };
  completion: RunCompletionData;
  /** Set when the store refused a batch for the run's fence (a peer owns the run). */
  fencedReason?: string;
}

export interface RemoteRunOutcome {
  /** The graph stopped at a breakpoint or an `interrupt()`. */
  interrupted: boolean;
}

/** Runs graphs in execution workers. */
export interface RunExecution {
  /** True when a worker serves this graph (else the run executes on the main thread). */
  runsRemotely(graphId: string): boolean;
  /**
   * Streams one run in a worker. Resolves once the worker's journal has been written; rejects
   * with what the graph threw (its class name kept), or when the worker died. Aborting `signal`
   * aborts the run in the worker.
   */
  execute(
    request: RemoteRunRequest,
    savers: RemoteRunSavers,
    sink: RemoteRunSink,
    signal: AbortSignal,
  ): Promise<RemoteRunOutcome>;
  close(): Promise<void>;
}
