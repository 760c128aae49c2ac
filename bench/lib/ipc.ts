/**
 * A tiny request/response protocol over Node's IPC channel between the bench (parent) and the
 * servers it measures (children), so the load generator never shares an event loop with them.
 */

export interface IpcRequest {
  id: number;
  type: string;
  body?: unknown;
}

export interface IpcReply {
  id: number;
  ok: boolean;
  body?: unknown;
  error?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

export function isIpcRequest(value: unknown): value is IpcRequest {
  return isRecord(value) && typeof value.id === "number" && typeof value.type === "string";
}

export function isIpcReply(value: unknown): value is IpcReply {
  return isRecord(value) && typeof value.id === "number" && typeof value.ok === "boolean";
}

/** The first message a child sends: where it listens and anything else the parent needs. */
export interface ReadyMessage {
  ready: true;
  url: string;
  pid: number;
}

export function isReadyMessage(value: unknown): value is ReadyMessage {
  return isRecord(value) && value.ready === true && typeof value.url === "string";
}
