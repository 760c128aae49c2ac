import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import type { Logger } from "../../core/logger.js";
import type { AgentFactory, RunStreamMode } from "../../ports/agent.js";
import type { RunEventStore } from "../../ports/run-event-store.js";
import type { RunExecution } from "../../ports/run-execution.js";
import type { RunTracing } from "../../ports/run-tracing.js";
import type { GraphCommandJson } from "../../ports/run-types.js";
import type { ThreadStore } from "../../ports/thread-store.js";
import type { RunJournal, RunJournalOptions } from "../journal/run-journal.js";
import type { RunSlots } from "../lifecycle/run-slots.js";
import type { RunRecord } from "../run-record.js";
import type { FinalizerStage } from "./finalizer-stages.js";
import type { ProducedOutputsScanner } from "./produced-outputs.js";
import type { restoreRollbackPoint } from "./rollback.js";

/** What a run's worker needs besides the manager and the bridge. */
export interface RunContext {
  checkpointer?: BaseCheckpointSaver | null;
  /**
   * The server's LangGraph store; a run's graph gets it scoped to the run's user (`storeFor`).
   * Absent: graphs run without a store.
   */
  storeFor?: ((record: RunRecord) => BaseStore) | null;
  eventStore?: RunEventStore | null;
  threadStore?: Pick<ThreadStore, "updateStatus"> | null;
  /**
   * Called once per finished run. The signal aborts when the host was cancelled: a hook that
   * would wait forever must stop then (finalization does not wait for it past that point).
   */
  onRunCompleted?: ((record: RunRecord, options: RunCompletedOptions) => Promise<void>) | null;
  /**
   * Hands the thread's sandbox back once the run is over, whatever its outcome (the reference's
   * SandboxMiddleware.after_agent). Runs in the finalizer before the thread can start its next run.
   */
  releaseSandbox?: ((record: RunRecord) => Promise<void>) | null;
  /**
   * Checks a started run before its agent is built (e.g. that files it was admitted with are
   * unchanged). `refuse` ends the run `error` with that stop reason and no agent is built;
   * `proceed` may hand back a `release` the finalizer calls once, whatever the run's outcome.
   */
  prepareRun?: ((record: RunRecord, signal: AbortSignal) => Promise<RunPreparation>) | null;
  /** Builds the run's journal (tests substitute a subclass to inject faults). */
  createJournal?: (options: RunJournalOptions) => RunJournal;
  /**
   * Starts post-END housekeeping detached from the run (tests track these). The work stops early
   * when its signal aborts.
   */
  spawnHousekeeping?: (name: string, work: (signal: AbortSignal) => Promise<void>) => void;
  /** The process's run slots (`runtime.max_running_runs`); absent: no limit. */
  runSlots?: RunSlots;
  /** Test-visible hook called before each finalizer stage runs. */
  beforeStage?: (stage: FinalizerStage, record: RunRecord) => Promise<void> | void;
  /** How long the live stream stays replayable after END (default 60 s). */
  streamRetentionMs?: number;
  trackTokenUsage?: boolean;
  logger?: Logger;
  /** Traces each run (OpenTelemetry, LangSmith, Langfuse); absent: runs carry no tracing work. */
  tracing?: RunTracing | null;
  /**
   * The host folder of the run's `/mnt/user-data/outputs`. When set, files the run creates there
   * must have been presented, or the run ends `error` (delivery verification).
   */
  outputsDirFor?: ((record: RunRecord) => string | null) | null;
  outputsScanner?: ProducedOutputsScanner;
  /**
   * Execution workers (`runtime.workers`): a run whose graph they serve streams in a worker
   * thread; absent, every run streams on this thread.
   */
  execution?: RunExecution | null;
  /** Restores the pre-run checkpoint on rollback (tests wrap it to observe the restore). */
  restoreCheckpoint?: typeof restoreRollbackPoint;
}

/** What `prepareRun` decided. */
export type RunPreparation =
  | { kind: "proceed"; release?: () => Promise<void> }
  | { kind: "refuse"; error: string; stopReason: string };

/** What a completion hook is told about the finished run. */
export interface RunCompletedOptions {
  signal: AbortSignal;
  /**
   * The graph's state values at the end of a successful run, as the journal saw them (the head
   * checkpoint's values, without reading it back); null when unknown (no journal, a failed,
   * interrupted or rolled-back run): read the checkpoint then.
   */
  finalValues?: Readonly<Record<string, unknown>> | null;
}

export interface RunAgentRequest {
  ctx: RunContext;
  agentFactory: AgentFactory;
  /** The graph the run executes (see `RunInvocation.graph_id`; default `lead_agent`). */
  graphId?: string;
  graphInput: unknown;
  /** The command `graphInput` was built from, as stored (what crosses to an execution worker). */
  command?: GraphCommandJson;
  config?: Record<string, unknown>;
  streamModes?: RunStreamMode[];
  streamSubgraphs?: boolean;
  interruptBefore?: string[] | "*";
  interruptAfter?: string[] | "*";
}
