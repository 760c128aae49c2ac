/*
 * What the runtime needs of tracing: a trace per run, opened when its worker starts and closed
 * when its finalizer ends. The runtime never imports a tracing library; `app/tracing/` implements
 * this with OpenTelemetry, LangSmith and Langfuse. No tracing configured: no `RunTracing` at all,
 * so a run does no tracing work.
 */

/** The ids a run's trace is labelled with (never its input). */
export interface TracedRun {
  runId: string;
  threadId: string;
  userId: string | null;
  assistantId: string | null;
  /** The graph the run executes (`lead_agent` or a configured graph's id). */
  graphId: string;
  /** When the run was admitted (ISO 8601): its trace starts there. */
  admittedAt: string;
  /** The LangSmith project the run asked for (`langsmith_tracer.project_name`). */
  langsmithProject?: string | null;
}

export interface RunTracing {
  /** Opens the run's trace; null when this run is not traced (sampled out). */
  startRun(run: TracedRun): RunTrace | null;
}

/** One run's open trace. Nothing here throws or blocks the run. */
export interface RunTrace {
  /** LangChain callback handlers to add to the run's graph (model, tool and sub-agent spans). */
  readonly callbacks: readonly unknown[];
  /** The run has been admitted and started (its worker won the start). */
  started(): void;
  /** Runs one finalizer stage inside its span. */
  stage<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Closes the run's trace with its final status (idempotent). */
  end(outcome: { status: string; error?: string | null }): void;
}
