import type { MessagePort } from "node:worker_threads";
import type { Json } from "../../core/json/serialize.js";
import type { WireError } from "../../core/wire-error.js";
import type { ConfigGraphEntry } from "../../graphs/load-graphs.js";
import type { RecursionLimits } from "../../ports/agent-stream-options.js";
import type { RemoteJournalSummary, RemoteRunRequest } from "../../ports/run-execution.js";

/*
 * The messages between the execution pool (main thread) and an execution worker. Everything is
 * structured-clone data; a run's savers travel on the `MessagePort` its `run` message transfers.
 */

/** What a worker loads its graphs from: the sources `fawn serve` loaded them from. */
export interface ExecutionWorkerData {
  graphs: {
    configGraphs?: Record<string, ConfigGraphEntry>;
    configDir: string;
    langgraphJson?: string;
  };
  limits?: RecursionLimits;
  logLevel: string;
}

export type ToWorker =
  | { type: "run"; id: number; request: RemoteRunRequest; port: MessagePort }
  | { type: "abort"; id: number; reason: string }
  /** This server's API URL, for a graph's `new Client()` without an `apiUrl`. */
  | { type: "api-url"; url: string };

/** One run's output, in the order it was produced. */
export type RunItem =
  | { id: number; kind: "publish"; event: string; data: Json }
  | { id: number; kind: "subagent"; data: Json };

export type FromWorker =
  | { type: "ready"; graphIds: string[] }
  | { type: "failed"; error: WireError }
  | { type: "items"; items: RunItem[] }
  | { type: "journal"; id: number; summary: RemoteJournalSummary }
  | { type: "end"; id: number; interrupted: boolean }
  | { type: "error"; id: number; error: WireError };
