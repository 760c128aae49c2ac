import { MessageChannel, Worker } from "node:worker_threads";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { errorFromWire } from "../../core/wire-error.js";
import type {
  RemoteRunOutcome,
  RemoteRunRequest,
  RemoteRunSavers,
  RemoteRunSink,
  RunExecution,
} from "../../ports/run-execution.js";
import { serveRunSavers } from "../../stores/port/serve-run-savers.js";
import type { ExecutionWorkerData, FromWorker, ToWorker } from "./execution-messages.js";
import { executionWorkerEntry } from "./worker-entry.js";

export interface ExecutionPoolOptions {
  /** How many worker threads (≥ 1). */
  workers: number;
  data: ExecutionWorkerData;
  logger: Logger;
  /**
   * The thread's script (default: `execution-thread.js` importing `execution-worker` beside this
   * module); a bundle passes its own, which is the worker itself.
   */
  entry?: URL;
}

/** The thread's script, and the module it imports (none: the script is the worker). */
interface WorkerEntry {
  script: URL;
  module: string | null;
}

function entryOf(options: ExecutionPoolOptions): WorkerEntry {
  return options.entry ? { script: options.entry, module: null } : executionWorkerEntry();
}

/** A worker died with runs on it: they fail, as a dead process's runs do. */
export class ExecutionWorkerExitedError extends Error {
  override name = "ExecutionWorkerExited";
}

interface ActiveRun {
  sink: RemoteRunSink;
  resolve(outcome: RemoteRunOutcome): void;
  reject(error: unknown): void;
}

/** One worker thread and the runs it streams. */
class WorkerSlot {
  readonly runs = new Map<number, ActiveRun>();
  /** Runs given to this worker and not yet over (counted before the worker has them). */
  load = 0;
  readonly worker: Worker;
  readonly ready: Promise<string[]>;
  exited = false;

  constructor(entry: WorkerEntry, data: ExecutionWorkerData) {
    this.worker = new Worker(entry.script, { workerData: { ...data, module: entry.module } });
    this.ready = new Promise((resolve, reject) => {
      const first = (message: FromWorker): void => {
        if (message.type === "ready") resolve(message.graphIds);
        else if (message.type === "failed") reject(errorFromWire(message.error));
      };
      this.worker.once("message", first);
      this.worker.once("error", reject);
      this.worker.once("exit", (code) => {
        reject(
          new ExecutionWorkerExitedError(
            `The execution worker exited (code ${code}) while starting.`,
          ),
        );
      });
    });
    this.ready.catch(() => undefined);
    this.worker.on("message", (message: FromWorker) => this.receive(message));
    this.worker.on("error", (error) => {
      for (const run of this.runs.values()) run.reject(error);
    });
    this.worker.once("exit", (code) => {
      this.exited = true;
      const error = new ExecutionWorkerExitedError(
        `The execution worker running this run exited (code ${code}); the run could not finish.`,
      );
      for (const run of this.runs.values()) run.reject(error);
      this.runs.clear();
    });
  }

  private receive(message: FromWorker): void {
    switch (message.type) {
      case "items":
        for (const item of message.items) {
          const run = this.runs.get(item.id);
          if (!run) continue;
          if (item.kind === "publish") run.sink.publish(item.event, item.data);
          else run.sink.observeSubagent(item.data);
        }
        return;
      case "journal":
        this.runs.get(message.id)?.sink.journalEnded(message.summary);
        return;
      case "end":
        this.runs.get(message.id)?.resolve({ interrupted: message.interrupted });
        return;
      case "error":
        this.runs.get(message.id)?.reject(errorFromWire(message.error));
        return;
      default:
        return;
    }
  }

  post(message: ToWorker, transfer?: Parameters<Worker["postMessage"]>[1]): void {
    this.worker.postMessage(message, transfer);
  }
}

/**
 * N execution worker threads for one server (`runtime.workers`): each loads the served graphs
 * and streams the runs it is given; a run goes to the worker with the fewest runs. The HTTP
 * server, the run manager, the bridge and the stores stay on the main thread; a run's savers are
 * served to its worker over a `MessageChannel` of its own. A worker that exits fails its runs and
 * is replaced.
 */
export class ExecutionPool implements RunExecution {
  private readonly slots: WorkerSlot[] = [];
  private readonly entry: WorkerEntry;
  private nextId = 1;
  private closed = false;
  private apiUrl: string | null = null;

  private constructor(
    private readonly options: ExecutionPoolOptions,
    private readonly graphIds: ReadonlySet<string>,
  ) {
    this.entry = entryOf(options);
  }

  /** Starts every worker and waits until each has loaded the graphs (a bad graph fails here). */
  static async start(options: ExecutionPoolOptions): Promise<ExecutionPool> {
    const entry = entryOf(options);
    const slots = Array.from(
      { length: Math.max(1, options.workers) },
      () => new WorkerSlot(entry, options.data),
    );
    let graphIds: string[];
    try {
      const loaded = await Promise.all(slots.map((slot) => slot.ready));
      graphIds = loaded[0] ?? [];
    } catch (error) {
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
      throw error;
    }
    const pool = new ExecutionPool(options, new Set(graphIds));
    for (const slot of slots) pool.adopt(slot);
    return pool;
  }

  runsRemotely(graphId: string): boolean {
    return !this.closed && this.graphIds.has(graphId);
  }

  async execute(
    request: RemoteRunRequest,
    savers: RemoteRunSavers,
    sink: RemoteRunSink,
    signal: AbortSignal,
  ): Promise<RemoteRunOutcome> {
    const slot = this.leastLoaded();
    slot.load += 1;
    const id = this.nextId++;
    const channel = new MessageChannel();
    const served = serveRunSavers(channel.port1, savers);
    const onAbort = (): void => {
      slot.post({ type: "abort", id, reason: describeError(signal.reason) || "cancelled" });
    };
    try {
      await slot.ready;
      return await new Promise<RemoteRunOutcome>((resolve, reject) => {
        if (slot.exited) {
          reject(new ExecutionWorkerExitedError("The execution worker for this run has exited."));
          return;
        }
        slot.runs.set(id, { sink, resolve, reject });
        slot.post({ type: "run", id, request, port: channel.port2 }, [channel.port2]);
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      });
    } finally {
      slot.load -= 1;
      signal.removeEventListener("abort", onAbort);
      slot.runs.delete(id);
      served.close();
    }
  }

  /** This server's API URL, for graphs that call it through an SDK `Client` given no `apiUrl`. */
  announceApiUrl(url: string): void {
    this.apiUrl = url;
    for (const slot of this.slots) slot.post({ type: "api-url", url });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private adopt(slot: WorkerSlot): void {
    this.slots.push(slot);
    slot.worker.once("exit", () => {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      if (this.closed) return;
      this.options.logger.error({}, "an execution worker exited; starting another");
      const replacement = new WorkerSlot(this.entry, this.options.data);
      if (this.apiUrl !== null) replacement.post({ type: "api-url", url: this.apiUrl });
      this.adopt(replacement);
    });
  }

  private leastLoaded(): WorkerSlot {
    let best: WorkerSlot | undefined;
    for (const slot of this.slots) {
      if (slot.exited) continue;
      if (!best || slot.load < best.load) best = slot;
    }
    if (!best) throw new ExecutionWorkerExitedError("No execution worker is running.");
    return best;
  }
}
