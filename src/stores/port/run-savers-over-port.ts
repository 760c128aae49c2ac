import type { MessagePort } from "node:worker_threads";
import {
  type BaseCheckpointSaver,
  type BaseStore,
  JsonPlusSerializer,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { RpcClient } from "../../core/async/port-rpc/rpc-client.js";
import type { SerializedRunEvent } from "../../ports/serialized-run-event.js";
import { PortCheckpointSaver } from "./port-checkpoint-saver.js";
import { PortGraphStore } from "./port-graph-store.js";
import type { RunSaverCalls, RunSaverStreams } from "./run-saver-protocol.js";

/** A run's journal writes as the execution thread makes them. */
export interface PortRunEvents {
  /** Lands in the main thread's event store under the run's fence; batches keep their order. */
  putBatch(events: readonly SerializedRunEvent[]): Promise<void>;
}

export interface SaversOverPort {
  checkpointer: BaseCheckpointSaver;
  store: BaseStore;
  events: PortRunEvents;
  /** Closes the port: pending calls fail, later ones reject at once. */
  close(): void;
}

export interface SaversOverPortOptions {
  /** Must match the serving side's (default JsonPlus on both). */
  serde?: SerializerProtocol;
  /** See `PortCheckpointSaverOptions.getNextVersion`. */
  getNextVersion?: (current: number | undefined) => number;
}

/**
 * The execution thread's end of a run's savers port (`serveRunSavers` serves the other): a
 * checkpointer, a LangGraph store and the journal's batch writer, each a proxy of the run's own
 * view on the main thread.
 */
export function runSaversOverPort(
  port: MessagePort,
  options: SaversOverPortOptions = {},
): SaversOverPort {
  const client = new RpcClient<RunSaverCalls, RunSaverStreams>(port, {
    label: "the run's savers on the main thread",
  });
  const serde = options.serde ?? new JsonPlusSerializer();
  return {
    checkpointer: new PortCheckpointSaver(client, {
      serde,
      ...(options.getNextVersion === undefined ? {} : { getNextVersion: options.getNextVersion }),
    }),
    store: new PortGraphStore(client),
    events: {
      async putBatch(events) {
        await client.call("events.putBatch", { events: events.map((event) => event.toWire()) });
      },
    },
    close: () => client.close(),
  };
}
