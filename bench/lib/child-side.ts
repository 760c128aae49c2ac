import { type IpcReply, isIpcRequest, type ReadyMessage } from "./ipc.js";

export type IpcHandler = (body: unknown) => Promise<unknown> | unknown;

/**
 * The child's half: answer the parent's requests, tell it where we listen, and exit when the
 * parent goes away (a crashed bench must not leave servers behind).
 */
export function serveParent(url: string, handlers: Record<string, IpcHandler>): void {
  const send = (message: IpcReply | ReadyMessage): void => {
    process.send?.(message);
  };
  process.on("message", (message: unknown) => {
    if (!isIpcRequest(message)) return;
    const handler = handlers[message.type];
    if (!handler) {
      send({ id: message.id, ok: false, error: `unknown request ${message.type}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(message.body))
      .then(
        (body) => send({ id: message.id, ok: true, body }),
        (error: unknown) =>
          send({
            id: message.id,
            ok: false,
            error: error instanceof Error ? error.message : String(error),
          }),
      );
  });
  process.on("disconnect", () => process.exit(0));
  send({ ready: true, url, pid: process.pid });
}

/** Heap and RSS after a full collection (the child runs with --expose-gc). */
export function collectedMemory(): { heapUsed: number; rss: number } {
  globalThis.gc?.();
  const usage = process.memoryUsage();
  return { heapUsed: usage.heapUsed, rss: usage.rss };
}
