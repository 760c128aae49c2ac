import { BaseStore, type Operation, type OperationResults } from "@langchain/langgraph-checkpoint";
import type { RpcClient } from "../../core/async/port-rpc/rpc-client.js";
import type { GraphStoreOperation } from "../../ports/graph-store.js";
import type { RunSaverCalls, RunSaverStreams } from "./run-saver-protocol.js";

/**
 * The LangGraph store a run's graph uses in an execution thread: each `batch` goes over the
 * run's port to the store `serveRunSavers` serves (already scoped to the run's user). Operations
 * keep their TTL fields (`ttl`, `refreshTtl`), so a `ScopedGraphStore` there sees them.
 */
export class PortGraphStore extends BaseStore {
  readonly #client: RpcClient<RunSaverCalls, RunSaverStreams>;

  constructor(client: RpcClient<RunSaverCalls, RunSaverStreams>) {
    super();
    this.#client = client;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results = await this.#client.call("store.batch", {
      operations: operations.map(asJsonValued),
    });
    // One answer per operation, of its kind: what OperationResults maps.
    return results as OperationResults<Op>;
  }
}

/**
 * A put's value as the store keeps it: through JSON, here, so `toJSON` methods and dropped
 * `undefined`s come out as they would in-process (structured clone would keep neither).
 */
function asJsonValued(operation: Operation): GraphStoreOperation {
  if (!("value" in operation) || operation.value === null) return operation;
  const text: string | undefined = JSON.stringify(operation.value);
  if (text === undefined) return operation;
  const value: Record<string, unknown> = JSON.parse(text);
  return { ...operation, value };
}
