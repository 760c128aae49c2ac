/**
 * An execution worker thread: loads the served graphs once, then streams the runs the pool sends
 * it (see `execution-pool.ts`). Started by the pool, never directly.
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { CancelledError } from "../../core/errors.js";
import { createLogger } from "../../core/logger.js";
import { errorToWire } from "../../core/wire-error.js";
import { type LoadedGraph, loadGraphs } from "../../graphs/load-graphs.js";
import { registerSdkApiUrl } from "../../graphs/platform-globals.js";
import type { ExecutionWorkerData, FromWorker, RunItem, ToWorker } from "./execution-messages.js";
import { executeRun } from "./worker-run.js";

/**
 * Posts a turn's run items as one message (a model streams a token per item; one `postMessage`
 * per token would cost more than the token). Any other message first flushes what is queued, so
 * a run's `journal` and `end` always follow its last item.
 */
class WorkerOutbox {
  private items: RunItem[] = [];
  private scheduled = false;

  constructor(private readonly port: MessagePort) {}

  item(item: RunItem): void {
    this.items.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  send(message: FromWorker): void {
    this.flush();
    this.port.postMessage(message);
  }

  private flush(): void {
    this.scheduled = false;
    if (this.items.length === 0) return;
    const items = this.items;
    this.items = [];
    this.port.postMessage({ type: "items", items } satisfies FromWorker);
  }
}

async function main(port: MessagePort, data: ExecutionWorkerData): Promise<void> {
  const logger = createLogger({ level: data.logLevel, name: "fawn-execution" });
  const outbox = new WorkerOutbox(port);
  let graphs: Map<string, LoadedGraph>;
  try {
    const loaded = await loadGraphs({
      ...data.graphs,
      logger,
      ...(data.limits ? { limits: data.limits } : {}),
    });
    graphs = new Map(loaded.graphs.map((graph) => [graph.served.graphId, graph]));
  } catch (error) {
    outbox.send({ type: "failed", error: errorToWire(error) });
    return;
  }
  const runs = new Map<number, AbortController>();
  port.on("message", (message: ToWorker) => {
    if (message.type === "abort") {
      runs.get(message.id)?.abort(new CancelledError(message.reason));
      return;
    }
    if (message.type === "api-url") {
      registerSdkApiUrl(message.url);
      return;
    }
    const { id } = message;
    const controller = new AbortController();
    runs.set(id, controller);
    void executeRun(
      id,
      message.request,
      message.port,
      graphs,
      {
        item: (item) => outbox.item(item),
        journal: (summary) => outbox.send({ type: "journal", id, summary }),
      },
      controller.signal,
      logger,
    )
      .then(
        (outcome) => outbox.send({ type: "end", id, interrupted: outcome.interrupted }),
        (error: unknown) => outbox.send({ type: "error", id, error: errorToWire(error) }),
      )
      .finally(() => runs.delete(id));
  });
  outbox.send({ type: "ready", graphIds: [...graphs.keys()] });
}

if (!parentPort) throw new Error("execution-worker.ts runs only as a worker thread of the pool");
void main(parentPort, workerData as ExecutionWorkerData);
