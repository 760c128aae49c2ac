import type { MessagePort } from "node:worker_threads";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  type BaseCheckpointSaver,
  type BaseStore,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  JsonPlusSerializer,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { type RpcHandlers, serveRpc } from "../../core/async/port-rpc/rpc-server.js";
import { StoreError } from "../../core/errors.js";
import type { GraphStoreResult } from "../../ports/graph-store.js";
import type { NewRunEvent } from "../../ports/run-event-store.js";
import { SerializedRunEvent } from "../../ports/serialized-run-event.js";
import {
  decode,
  type Encoded,
  encode,
  type RunSaverCalls,
  type RunSaverStreams,
  type WireListOptions,
  wireConfig,
} from "./run-saver-protocol.js";
import { StartOrder } from "./start-order.js";

/** A run's journal writes, already bound to the run's fence. */
export interface RunEventsSink {
  putBatch(events: readonly NewRunEvent[]): Promise<unknown>;
}

/** One run's savers on the main thread: each already the run's own view (fenced, scoped). */
export interface RunSavers {
  checkpointer?: BaseCheckpointSaver;
  store?: BaseStore;
  events?: RunEventsSink;
  /** Encodes checkpoints across the port; the other side must use the same (default JsonPlus). */
  serde?: SerializerProtocol;
}

export interface ServedRunSavers {
  /** Stops serving: the port closes, the other side's pending and later calls fail. */
  close(): void;
}

/**
 * Serves one run's savers on `port` (the main thread's end of the run's `MessageChannel`); the
 * execution thread reaches them with `runSaversOverPort`. Calls start in the order they were
 * sent (after their arguments are revived), so the savers see them as they would in-process.
 */
export function serveRunSavers(port: MessagePort, savers: RunSavers): ServedRunSavers {
  const serde = savers.serde ?? new JsonPlusSerializer();
  const order = new StartOrder();
  const { checkpointer, store, events } = savers;
  const saver = (): BaseCheckpointSaver => checkpointer ?? notServed("checkpointer");

  const handlers: RpcHandlers<RunSaverCalls, RunSaverStreams> = {
    calls: {
      "checkpoint.getTuple": ({ config }) =>
        order.start(
          async () => saver(),
          async (served) => {
            const tuple = await served.getTuple(config);
            return tuple === undefined ? null : encode(serde, tuple);
          },
        ),
      "checkpoint.put": ({ config, payload, newVersions }) =>
        order.start(
          async () => ({
            served: saver(),
            ...(await decode<{ checkpoint: Checkpoint; metadata: CheckpointMetadata }>(
              serde,
              payload,
            )),
          }),
          async ({ served, checkpoint, metadata }) =>
            wireConfig(await served.put(config, checkpoint, metadata, newVersions)),
        ),
      "checkpoint.putWrites": ({ config, writes, taskId, taskPath }) =>
        order.start(
          async () => ({ served: saver(), writes: await decode<PendingWrite[]>(serde, writes) }),
          async (revived) => {
            await revived.served.putWrites(config, revived.writes, taskId, taskPath ?? undefined);
            return null;
          },
        ),
      "checkpoint.deleteThread": ({ threadId }) =>
        order.start(
          async () => saver(),
          async (served) => {
            await served.deleteThread(threadId);
            return null;
          },
        ),
      "checkpoint.deltaChannelHistory": ({ config, channels }) =>
        order.start(
          async () => saver(),
          async (served) =>
            encode(serde, await served.getDeltaChannelHistory({ config, channels })),
        ),
      "store.batch": ({ operations }) =>
        order.start(
          async () => store ?? notServed("store"),
          // The store answers per operation kind; the protocol carries the array as it is.
          async (served): Promise<GraphStoreResult[]> => served.batch(operations),
        ),
      "events.putBatch": ({ events: wire }) =>
        order.start(
          async () => ({
            sink: events ?? notServed("event store"),
            batch: wire.map((event) => SerializedRunEvent.fromWire(event)),
          }),
          async ({ sink, batch }) => {
            await sink.putBatch(batch);
            return null;
          },
        ),
    },
    streams: {
      "checkpoint.list": ({ config, options }) => listEncoded(order, saver, serde, config, options),
    },
  };
  return serveRpc(port, handlers);
}

/** The saver's `list`, each tuple encoded; opened in call order like every other call. */
async function* listEncoded(
  order: StartOrder,
  saver: () => BaseCheckpointSaver,
  serde: SerializerProtocol,
  config: RunnableConfig,
  options: WireListOptions,
): AsyncGenerator<Encoded> {
  const tuples = await order.start(
    async () => saver(),
    async (served) => served.list(config, listOptions(options)),
  );
  for await (const tuple of tuples) yield await encode(serde, tuple);
}

function listOptions(options: WireListOptions): CheckpointListOptions {
  return {
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.before === undefined ? {} : { before: options.before }),
    ...(options.filter === undefined ? {} : { filter: options.filter }),
  };
}

function notServed(what: string): never {
  throw new StoreError(
    `No ${what} is served for this run; serve one with serveRunSavers({ ${what === "event store" ? "events" : what} }).`,
  );
}
