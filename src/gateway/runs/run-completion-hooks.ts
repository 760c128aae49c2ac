import type { Fawn } from "../../app/create-fawn.js";
import { describeError } from "../../core/errors.js";
import { toJson } from "../../core/json/serialize.js";
import type { Logger } from "../../core/logger.js";
import type { RunRecord } from "../../runtime/run-record.js";
import type { RunContext } from "../../runtime/worker/run-context.js";
import { isInternalChannel } from "../state/checkpoint-to-state.js";
import { toApiRun } from "./run-response.js";

const WEBHOOK_TIMEOUT_MS = 10_000;

type CompletionHook = NonNullable<RunContext["onRunCompleted"]>;

/**
 * The gateway's part of a run's completion: copy the state's `title` to the thread row (what
 * thread lists show) and POST the run to its `webhook`. Built before `createFawn` (the hook goes
 * into its run context) and attached to the Fawn afterwards.
 */
export class RunCompletionHooks {
  private fawn: Fawn | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  attach(fawn: Fawn): void {
    this.fawn = fawn;
  }

  readonly onRunCompleted: CompletionHook = async (record, options) => {
    const fawn = this.fawn;
    if (!fawn || record.operationKind !== "run") return;
    const webhook = record.kwargs.webhook;
    // The title needs no checkpoint read when the journal saw the final values (every successful
    // run); a webhook posts the head's values, so it still reads them.
    const known = typeof webhook === "string" ? null : (options.finalValues ?? null);
    const values = known ?? (await this.headValues(fawn, record.threadId));
    const title = values?.title;
    if (typeof title === "string" && title.length > 0) {
      await fawn.stores.threads
        .updateDisplayName(record.threadId, title.slice(0, 500), new Date().toISOString())
        .catch((error: unknown) =>
          this.logger.warn({ error: describeError(error) }, "title update failed"),
        );
    }
    // Detached: a slow receiver must never hold up the run's finalization.
    if (typeof webhook === "string") void this.postWebhook(fawn, record, webhook, values);
  };

  private async headValues(
    fawn: Fawn,
    threadId: string,
  ): Promise<Readonly<Record<string, unknown>> | null> {
    try {
      const tuple = await fawn.checkpointer.getTuple({
        configurable: { thread_id: threadId, checkpoint_ns: "" },
      });
      return tuple ? tuple.checkpoint.channel_values : null;
    } catch {
      return null;
    }
  }

  private async postWebhook(
    fawn: Fawn,
    record: RunRecord,
    url: string,
    values: Readonly<Record<string, unknown>> | null,
  ): Promise<void> {
    try {
      const row = (await fawn.stores.runs.get(record.runId)) ?? record.toRow();
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
