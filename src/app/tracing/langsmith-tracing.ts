import { LangChainTracer } from "@langchain/core/tracers/tracer_langchain";
import { Client } from "langsmith";
import type { LangsmithSettings } from "../../core/config/tracing-schema.js";
import type { TracedRun } from "../../ports/run-tracing.js";

/**
 * LangSmith through LangChain's own `LangChainTracer`: one client per Fawn (it batches runs and
 * sends them to `<endpoint>/runs/...` with the API key in a header), one tracer per run, labelled
 * with the run's ids so LangSmith groups a thread's runs.
 */
export class LangsmithTracing {
  private readonly client: Client;

  constructor(private readonly settings: LangsmithSettings) {
    this.client = new Client({
      apiUrl: settings.endpoint,
      ...(settings.api_key ? { apiKey: settings.api_key } : {}),
      autoBatchTracing: true,
    });
  }

  /** The run's tracer; `projectName` overrides the configured project (`langsmith_tracer`). */
  tracerFor(run: TracedRun, projectName?: string): LangChainTracer {
    return new LangChainTracer({
      client: this.client,
      projectName: projectName ?? this.settings.project,
      metadata: {
        thread_id: run.threadId,
        run_id: run.runId,
        graph_id: run.graphId,
        ...(run.assistantId ? { assistant_id: run.assistantId } : {}),
      },
    });
  }

  /** Sends every run still queued. */
  async flush(): Promise<void> {
    await this.client.awaitPendingTraceBatches();
  }
}
