import type { MessagePort } from "node:worker_threads";
import { errorToWire } from "../../wire-error.js";
import {
  isRpcRequest,
  RPC_PAGE_ITEMS,
  type RpcCalls,
  type RpcReply,
  type RpcRequest,
  type RpcStreams,
} from "./rpc-messages.js";

/** One function per method and per stream; each is called as its request arrives. */
export interface RpcHandlers<Calls extends RpcCalls, Streams extends RpcStreams> {
  calls: { [M in keyof Calls]: (args: Calls[M]["args"]) => Promise<Calls[M]["result"]> };
  streams: {
    [M in keyof Streams]: (args: Streams[M]["args"]) => AsyncIterator<Streams[M]["item"]>;
  };
}

export interface RpcServer {
  /** Ends the open streams and closes the port; the calling side's pending calls fail. */
  close(): void;
}

type AnyCall = (args: unknown) => Promise<unknown>;
type AnyStream = (args: unknown) => AsyncIterator<unknown>;

/**
 * The serving end of the protocol in `rpc-messages.ts`. A handler is called synchronously when
 * its request arrives, so handlers start in the order the caller sent them; each answer is
 * posted as soon as its handler settles. A failure is answered as a `WireError`.
 */
export function serveRpc<Calls extends RpcCalls, Streams extends RpcStreams>(
  port: MessagePort,
  handlers: RpcHandlers<Calls, Streams>,
  options: { pageItems?: number } = {},
): RpcServer {
  const pageItems = options.pageItems ?? RPC_PAGE_ITEMS;
  // The typed maps, looked up by the method name a request carries.
  const calls: Record<string, AnyCall> = handlers.calls as Record<string, AnyCall>;
  const streamHandlers: Record<string, AnyStream> = handlers.streams as Record<string, AnyStream>;
  const open = new Map<number, AsyncIterator<unknown>>();
  let closed = false;

  const post = (reply: RpcReply): void => {
    if (closed) return;
    try {
      port.postMessage(reply);
    } catch (error) {
      // An answer structured clone cannot copy: the caller gets why instead.
      if (reply.kind !== "error") post({ kind: "error", id: reply.id, error: errorToWire(error) });
    }
  };

  const pullPage = async (id: number, stream: number, iterator: AsyncIterator<unknown>) => {
    const items: unknown[] = [];
    try {
      while (items.length < pageItems) {
        const step = await iterator.next();
        if (step.done === true) {
          open.delete(stream);
          post({ kind: "page", id, items, done: true });
          return;
        }
        items.push(step.value);
      }
      post({ kind: "page", id, items, done: false });
    } catch (error) {
      open.delete(stream);
      post({ kind: "error", id, error: errorToWire(error) });
    }
  };

  const settle = (id: number, run: () => Promise<unknown>): void => {
    let result: Promise<unknown>;
    try {
      result = run();
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      (value) => post({ kind: "result", id, value }),
      (error: unknown) => post({ kind: "error", id, error: errorToWire(error) }),
    );
  };

  const fail = (id: number, message: string): void =>
    post({ kind: "error", id, error: { code: null, name: "Error", message } });

  const handle = (request: RpcRequest): void => {
    switch (request.kind) {
      case "call": {
        const handler = Object.hasOwn(calls, request.method) ? calls[request.method] : undefined;
        if (handler === undefined) fail(request.id, unknownMethod(request.method));
        else settle(request.id, () => handler(request.args));
        break;
      }
      case "open": {
        const handler = Object.hasOwn(streamHandlers, request.method)
          ? streamHandlers[request.method]
          : undefined;
        if (handler === undefined) fail(request.id, unknownMethod(request.method));
        else openStream(request.id, () => handler(request.args));
        break;
      }
      case "next": {
        const iterator = open.get(request.stream);
        if (iterator === undefined) fail(request.id, "The stream asked for has ended.");
        else void pullPage(request.id, request.stream, iterator);
        break;
      }
      case "return": {
        const iterator = open.get(request.stream);
        open.delete(request.stream);
        void endIterator(iterator);
        break;
      }
    }
  };

  const openStream = (id: number, create: () => AsyncIterator<unknown>): void => {
    let iterator: AsyncIterator<unknown>;
    try {
      iterator = create();
    } catch (error) {
      post({ kind: "error", id, error: errorToWire(error) });
      return;
    }
    open.set(id, iterator);
    void pullPage(id, id, iterator);
  };

  const shutDown = (): void => {
    if (closed) return;
    closed = true;
    const iterators = [...open.values()];
    open.clear();
    for (const iterator of iterators) void endIterator(iterator);
  };

  port.on("message", (message: unknown) => {
    if (!closed && isRpcRequest(message)) handle(message);
  });
  port.on("close", shutDown);
  return {
    close() {
      shutDown();
      port.close();
    },
  };
}

function unknownMethod(method: string): string {
  return `No method "${method}" is served on this port.`;
}

/** Lets an abandoned iterator run its `finally` (a read transaction it holds, for one). */
async function endIterator(iterator: AsyncIterator<unknown> | undefined): Promise<void> {
  try {
    await iterator?.return?.();
  } catch {
    // The stream's consumer is gone; nobody is left to tell.
  }
}
