import type { MessagePort } from "node:worker_threads";
import { StoreError } from "../../errors.js";
import { errorFromWire } from "../../wire-error.js";
import {
  isRpcReply,
  type RpcCalls,
  type RpcReply,
  type RpcRequest,
  type RpcStreams,
} from "./rpc-messages.js";

export interface RpcClientOptions {
  /** What the port reaches, for error messages: "the run's savers". */
  label: string;
  /** The error a call gets once the port is closed (default: a `StoreError`, 503). */
  unavailable?: (message: string) => Error;
}

interface PendingRequest {
  resolve(reply: RpcReply): void;
  reject(error: Error): void;
}

/**
 * The calling end of the protocol in `rpc-messages.ts`. Requests go out in the order they are
 * made; answers come back by id, in whatever order they settle. Once the port is closed (by
 * `close()` or by the other side), pending calls reject and new ones reject at once, both with
 * an error saying so.
 */
export class RpcClient<Calls extends RpcCalls, Streams extends RpcStreams> {
  readonly #port: MessagePort;
  readonly #label: string;
  readonly #unavailable: (message: string) => Error;
  readonly #pending = new Map<number, PendingRequest>();
  #nextId = 1;
  /** Why the port is closed; null while open. */
  #closedBecause: string | null = null;

  constructor(port: MessagePort, options: RpcClientOptions) {
    this.#port = port;
    this.#label = options.label;
    this.#unavailable = options.unavailable ?? ((message) => new StoreError(message));
    port.on("message", (message: unknown) => this.#onReply(message));
    port.on("close", () => this.#closed("the other side closed it"));
  }

  async call<M extends keyof Calls & string>(
    method: M,
    args: Calls[M]["args"],
  ): Promise<Calls[M]["result"]> {
    const reply = await this.#request((id) => ({ kind: "call", id, method, args }));
    if (reply.kind !== "result") throw this.#unexpected(reply, method);
    // The serving side answers this method with its declared result.
    return reply.value as Calls[M]["result"];
  }

  /** The serving side's iterator, a page at a time; ending early tells it to stop. */
  async *stream<M extends keyof Streams & string>(
    method: M,
    args: Streams[M]["args"],
  ): AsyncGenerator<Streams[M]["item"]> {
    let reply = await this.#request((id) => ({ kind: "open", id, method, args }));
    const stream = reply.id;
    let finished = false;
    try {
      for (;;) {
        if (reply.kind !== "page") throw this.#unexpected(reply, method);
        for (const item of reply.items) yield item as Streams[M]["item"];
        if (reply.done) {
          finished = true;
          return;
        }
        reply = await this.#request((id) => ({ kind: "next", id, stream }));
      }
    } finally {
      if (!finished && this.#closedBecause === null) this.#post({ kind: "return", stream });
    }
  }

  /** Closes the port; calls still waiting reject, later calls reject at once. */
  close(): void {
    this.#closed("it was closed on this side");
    this.#port.close();
  }

  #request(build: (id: number) => RpcRequest): Promise<RpcReply> {
    if (this.#closedBecause !== null) {
      return Promise.reject(
        this.#unavailable(
          `Cannot reach ${this.#label}: the port was closed (${this.#closedBecause}); the call was not sent.`,
        ),
      );
    }
    const id = this.#nextId++;
    return new Promise<RpcReply>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        this.#port.postMessage(build(id));
      } catch (error) {
        // Arguments structured clone cannot copy (a function, a class it cannot clone).
        this.#pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  #post(request: RpcRequest): void {
    try {
      this.#port.postMessage(request);
    } catch {
      // Only `return` goes this way: a port closing meanwhile ends the stream anyway.
    }
  }

  #onReply(message: unknown): void {
    if (!isRpcReply(message)) return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if (message.kind === "error") pending.reject(errorFromWire(message.error));
    else pending.resolve(message);
  }

  #closed(because: string): void {
    if (this.#closedBecause !== null) return;
    this.#closedBecause = because;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of pending) {
      request.reject(
        this.#unavailable(
          `Lost ${this.#label}: the port was closed (${because}) before the answer came; the call may or may not have taken effect.`,
        ),
      );
    }
  }

  #unexpected(reply: RpcReply, method: string): Error {
    return new Error(`${this.#label} answered ${method} with a "${reply.kind}" reply.`);
  }
}
