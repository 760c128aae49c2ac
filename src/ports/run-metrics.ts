import type { ModelTokenUsage, RunStatus } from "./run-types.js";

/**
 * What the runtime tells an observer (metrics) about a run's lifecycle. Every hook is optional
 * and must not throw or block: it is called on the run's own path. `graph` is the run's graph or
 * assistant kind, a low-cardinality label (never a run, thread or user id).
 */
export interface RunObserver {
  /** A run was admitted (not replayed, queued or store-only); `latencyMs`: the admission step. */
  runAdmitted?(runId: string, graph: string, latencyMs: number): void;
  /** The run's worker was launched. */
  runStarted?(runId: string, graph: string): void;
  /** The run published its first event to subscribers. */
  firstEvent?(runId: string): void;
  /** The run's worker settled with this status. */
  runEnded?(runId: string, graph: string, status: RunStatus): void;
  /** A run's token totals by model, as committed with its completion. */
  tokenUsage?(byModel: Readonly<Record<string, ModelTokenUsage>>): void;
  /** Runs taken over from a dead owner, or whose evidence was sealed after its owner died. */
  runsRecovered?(kind: "orphaned" | "unsealed", count: number): void;
}

/** Counts open SSE subscriptions (one per streaming response). */
export interface StreamSubscriberGauge {
  opened(): void;
  closed(): void;
}

/** What the gateway serves at `GET /metrics`, and the counters its routes feed. */
export interface MetricsExposition {
  readonly contentType: string;
  /** The text exposition of every metric. */
  render(): Promise<string>;
  readonly streamSubscribers: StreamSubscriberGauge;
}
