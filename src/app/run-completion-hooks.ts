import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { describeError } from "../core/errors.js";
import { toJson } from "../core/json/serialize.js";
import type { Logger } from "../core/logger.js";
import { toApiRun } from "../gateway/runs/run-response.js";
import { isInternalChannel } from "../gateway/state/checkpoint-to-state.js";
import type { RunStore } from "../ports/run-store.js";
import type { ThreadStore } from "../ports/thread-store.js";
import type { RunRecord } from "../runtime/run-record.js";
import type { RunContext } from "../runtime/worker/run-context.js";

const WEBHOOK_TIMEOUT_MS = 10_000;

type CompletionHook = NonNullable<RunContext["onRunCompleted"]>;

export interface RunCompletionHooksDeps {
  threads: Pick<ThreadStore, "updateDisplayName">;
  runs: Pick<RunStore, "get">;
  checkpointer: BaseCheckpointSaver;
  logger: Logger;
  fetchImpl?: typeof fetch;
}

/**
 * What the server does when a run completes: copy the state's `title` to the thread row (what
 * thread lists show) and POST the run to its `webhook`. `createFawn({ completionHooks: true })`
 * builds it over the stores and checkpointer it chose.
 */
export class RunCompletionHooks {
  private readonly logger: Logger;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly deps: RunCompletionHooksDeps) {
    this.logger = deps.logger;
    this.fetchImpl = deps.fetchImpl ?? fetch;
  }

  readonly onRunCompleted: CompletionHook = async (record, options) => {
    if (record.operationKind !== "run") return;
    const webhook = record.kwargs.webhook;
    // The title needs no checkpoint read when the journal saw the final values (every successful
    // run); a webhook posts the head's values, so it still reads them.
    const known = typeof webhook === "string" ? null : (options.finalValues ?? null);
    const values = known ?? (await this.headValues(record.threadId));
    const title = values?.title;
    if (typeof title === "string" && title.length > 0) {
      await this.deps.threads
        .updateDisplayName(record.threadId, title.slice(0, 500), new Date().toISOString())
        .catch((error: unknown) =>
          this.logger.warn({ error: describeError(error) }, "title update failed"),
        );
    }
    // Detached: a slow receiver must never hold up the run's finalization.
    if (typeof webhook === "string") void this.postWebhook(record, webhook, values);
  };

  private async headValues(threadId: string): Promise<Readonly<Record<string, unknown>> | null> {
    try {
      const tuple = await this.deps.checkpointer.getTuple({
        configurable: { thread_id: threadId, checkpoint_ns: "" },
      });
      return tuple ? tuple.checkpoint.channel_values : null;
    } catch {
      return null;
    }
  }

  private async postWebhook(
    record: RunRecord,
    url: string,
    values: Readonly<Record<string, unknown>> | null,
  ): Promise<void> {
    try {
      const row = (await this.deps.runs.get(record.runId)) ?? record.toRow();
      const response = await this.fetchImpl(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...toApiRun(row), values: toJson(filterValues(values)) }),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      if (!response.ok) {
        this.logger.warn(
          { runId: record.runId, status: response.status },
          "webhook answered an error",
        );
      }
    } catch (error) {
      this.logger.warn(
        { runId: record.runId, error: describeError(error) },
        "webhook delivery failed",
      );
    }
  }
}

function filterValues(values: Readonly<Record<string, unknown>> | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (!isInternalChannel(key)) out[key] = value;
  }
  return out;
}
