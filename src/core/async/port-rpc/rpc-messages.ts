import type { WireError } from "../../wire-error.js";

/**
 * The messages of a request/response protocol over one `MessagePort`. A caller numbers its
 * requests; each reply names the request it answers. A stream (an async iterator on the serving
 * side) is pulled a page at a time: `open` answers the first page, `next` each further one,
 * `return` ends it early; the stream is named by the id of its `open`.
 */
export type RpcRequest =
  | { kind: "call"; id: number; method: string; args: unknown }
  | { kind: "open"; id: number; method: string; args: unknown }
  | { kind: "next"; id: number; stream: number }
  | { kind: "return"; stream: number };

export type RpcReply =
  | { kind: "result"; id: number; value: unknown }
  | { kind: "page"; id: number; items: unknown[]; done: boolean }
  | { kind: "error"; id: number; error: WireError };

/** One method's argument and answer. */
export interface RpcCall<Args, Result> {
  args: Args;
  result: Result;
}

/** One stream's argument and item. */
export interface RpcStream<Args, Item> {
  args: Args;
  item: Item;
}

export type RpcCalls = Record<string, RpcCall<unknown, unknown>>;
export type RpcStreams = Record<string, RpcStream<unknown, unknown>>;

/** Items a stream's page holds at most: one reply stays small, and early ends waste little. */
export const RPC_PAGE_ITEMS = 16;

export function isRpcRequest(value: unknown): value is RpcRequest {
  if (typeof value !== "object" || value === null || !("kind" in value)) return false;
  switch (value.kind) {
    case "call":
    case "open":
      return "id" in value && typeof value.id === "number" && "method" in value;
    case "next":
      return "id" in value && typeof value.id === "number" && "stream" in value;
    case "return":
      return "stream" in value;
    default:
      return false;
  }
}

export function isRpcReply(value: unknown): value is RpcReply {
  return (
    typeof value === "object" &&
    value !== null &&
    "kind" in value &&
    "id" in value &&
    typeof value.id === "number" &&
    (value.kind === "result" || value.kind === "page" || value.kind === "error")
  );
}
