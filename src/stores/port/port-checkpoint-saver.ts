import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type DeltaChannelHistory,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import type { RpcClient } from "../../core/async/port-rpc/rpc-client.js";
import { nextChannelVersion } from "../sql/checkpoint/channel-version.js";
import {
  decode,
  encode,
  type RunSaverCalls,
  type RunSaverStreams,
  type WireListOptions,
  wireConfig,
} from "./run-saver-protocol.js";
import { StartOrder } from "./start-order.js";

export interface PortCheckpointSaverOptions {
  serde?: SerializerProtocol;
  /**
   * The served saver's version rule, which must be answered here without a round trip. Default:
   * the SQL saver's (integer part + 1 plus a random fraction), which a `MemorySaver` accepts too.
   */
  getNextVersion?: (current: number | undefined) => number;
}

/**
 * The checkpointer a run's graph uses in an execution thread: every call goes over the run's
 * port to the saver `serveRunSavers` serves (the run's fenced view of the main saver), so an
 * `OwnershipLostError` there is one here. Values cross as `serde` payloads (see
 * `run-saver-protocol.ts`).
 */
export class PortCheckpointSaver extends BaseCheckpointSaver<number> {
  readonly #client: RpcClient<RunSaverCalls, RunSaverStreams>;
  readonly #nextVersion: (current: number | undefined) => number;
  /** Calls go out in the order they were made, each once its values are encoded. */
  readonly #order = new StartOrder();

  constructor(
    client: RpcClient<RunSaverCalls, RunSaverStreams>,
    options: PortCheckpointSaverOptions = {},
  ) {
    super(options.serde);
    this.#client = client;
    this.#nextVersion = options.getNextVersion ?? nextChannelVersion;
  }

  override getNextVersion(current: number | undefined): number {
    return this.#nextVersion(current);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const args = { config: wireConfig(config) };
    const encoded = await this.#order.start(
      async () => args,
      (ready) => this.#client.call("checkpoint.getTuple", ready),
    );
    return encoded === null ? undefined : decode<CheckpointTuple>(this.serde, encoded);
  }

  async *list(
    config: RunnableConfig,
    options: CheckpointListOptions = {},
  ): AsyncGenerator<CheckpointTuple> {
    const wireOptions: WireListOptions = {
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.before === undefined ? {} : { before: wireConfig(options.before) }),
      ...(options.filter === undefined ? {} : { filter: options.filter }),
    };
    const items = this.#client.stream("checkpoint.list", {
      config: wireConfig(config),
      options: wireOptions,
    });
    for await (const encoded of items) yield await decode<CheckpointTuple>(this.serde, encoded);
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const wire = wireConfig(config);
    const versions = { ...newVersions };
    const payload = encode(this.serde, { checkpoint, metadata });
    return this.#order.start(
      awaiting(payload, (encoded) => ({ config: wire, payload: encoded, newVersions: versions })),
      (ready) => this.#client.call("checkpoint.put", ready),
    );
  }

  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    const wire = wireConfig(config);
    const encoded = encode(this.serde, writes);
    await this.#order.start(
      awaiting(encoded, (values) => ({
        config: wire,
        writes: values,
        taskId,
        taskPath: taskPath ?? null,
      })),
      (ready) => this.#client.call("checkpoint.putWrites", ready),
    );
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.#order.start(
      async () => ({ threadId }),
      (ready) => this.#client.call("checkpoint.deleteThread", ready),
    );
  }

  /** One round trip, where the default walk would take one per ancestor. */
  override async getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<Record<string, DeltaChannelHistory>> {
    const args = { config: wireConfig(options.config), channels: [...options.channels] };
    const encoded = await this.#order.start(
      async () => args,
      (ready) => this.#client.call("checkpoint.deltaChannelHistory", ready),
    );
    return decode<Record<string, DeltaChannelHistory>>(this.serde, encoded);
  }
}

/**
 * The preparation of a call whose values were encoded when it was made (the caller may change
 * them afterwards, as it may with an in-process saver once `put` returned its promise); its
 * failure is the call's, never an unhandled rejection while earlier calls are still going out.
 */
function awaiting<T, A>(encoding: Promise<T>, build: (encoded: T) => A): () => Promise<A> {
  encoding.catch(() => undefined);
  return async () => build(await encoding);
}
