import type { RunnableConfig } from "@langchain/core/runnables";
import type { ChannelVersions, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { RpcCall, RpcStream } from "../../core/async/port-rpc/rpc-messages.js";
import type { GraphStoreOperation, GraphStoreResult } from "../../ports/graph-store.js";
import type { SerializedRunEventWire } from "../../ports/serialized-run-event.js";

/**
 * What crosses a run's savers port. Checkpoints, their metadata, pending writes and channel
 * histories hold LangChain messages (class instances structured clone would strip of their
 * prototypes), so each travels as one `serde.dumpsTyped` payload, revived with `loadsTyped` on
 * the other side. Configs travel as their `configurable`'s plain values (`wireConfig`), store
 * operations and answers as structured clone copies them (item values are JSON, dates clone),
 * journal events in their wire form (`SerializedRunEvent.toWire`).
 */
export type Encoded = [type: string, data: Uint8Array];

export type WireValue = string | number | boolean | null;

export interface WireConfig {
  configurable: Record<string, WireValue>;
}

export interface WireListOptions {
  limit?: number;
  before?: WireConfig;
  filter?: Record<string, unknown>;
}

export type RunSaverCalls = {
  "checkpoint.getTuple": RpcCall<{ config: WireConfig }, Encoded | null>;
  /** `payload` encodes `{ checkpoint, metadata }`. */
  "checkpoint.put": RpcCall<
    { config: WireConfig; payload: Encoded; newVersions: ChannelVersions },
    WireConfig
  >;
  /** `writes` encodes the `PendingWrite[]`. */
  "checkpoint.putWrites": RpcCall<
    { config: WireConfig; writes: Encoded; taskId: string; taskPath: string | null },
    null
  >;
  "checkpoint.deleteThread": RpcCall<{ threadId: string }, null>;
  "checkpoint.deltaChannelHistory": RpcCall<{ config: WireConfig; channels: string[] }, Encoded>;
  "store.batch": RpcCall<{ operations: GraphStoreOperation[] }, GraphStoreResult[]>;
  "events.putBatch": RpcCall<{ events: SerializedRunEventWire[] }, null>;
};

export type RunSaverStreams = {
  /** Each item encodes one `CheckpointTuple`. */
  "checkpoint.list": RpcStream<{ config: WireConfig; options: WireListOptions }, Encoded>;
};

/**
 * A config as a saver reads it: the plain values of `configurable` (thread, namespace,
 * checkpoint id and the like). Callbacks, signals, the run's store and LangGraph's `__pregel_*`
 * internals stay behind: they cannot cross, and no saver reads them.
 */
export function wireConfig(config: RunnableConfig | undefined): WireConfig {
  const configurable: Record<string, WireValue> = {};
  for (const [key, value] of Object.entries(config?.configurable ?? {})) {
    if (key.startsWith("__pregel_")) continue;
    if (
      value === null ||
      typeof value === "string" ||
      typeof value === "boolean" ||
      (typeof value === "number" && Number.isFinite(value))
    ) {
      configurable[key] = value;
    }
  }
  return { configurable };
}

export function encode(serde: SerializerProtocol, value: unknown): Promise<Encoded> {
  return serde.dumpsTyped(value);
}

/** The value `encode` wrote; the caller names the type the protocol says it is. */
export async function decode<T>(serde: SerializerProtocol, [type, data]: Encoded): Promise<T> {
  const value: T = await serde.loadsTyped(type, data);
  return value;
}
