import { posix } from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { KeyedMutex } from "../../../core/async/keyed-mutex.js";
import { isToolMessage } from "../conversation.js";
import type { AgentMiddleware, ToolCallRequest, ToolCallResult } from "../types.js";
import type { CurrentFileHash } from "./current-file-hash.js";

/** Where a successful `read_file` result keeps the version it showed (in the thread's messages). */
export const READ_MARK_KEY = "read_mark";

const READ_TOOLS = new Set(["read_file"]);
const GATED_WRITE_TOOLS = new Set(["write_file", "str_replace"]);

/**
 * A version gate against blind edits (the same section appended five times): changing a file that
 * exists needs a `read_file` of its current version earlier in the conversation. The mark is the
 * file's sha256, stamped on the read's tool message, so the gate keeps no state of its own; a
 * summary that drops the read drops the mark, and any write changes the hash, so every edit needs
 * a fresh read. Gate and write (and read and stamp) are serialized per (thread, path), since the
 * tool calls of one answer run concurrently. When the file cannot be inspected the write goes on
 * and the tool reports its own error.
 */
export function createReadBeforeWriteMiddleware(options: {
  fileHash: CurrentFileHash;
}): AgentMiddleware {
  const locks = new KeyedMutex<string>();
  return {
    name: "ReadBeforeWriteMiddleware",
    tag: "read_before_write",
    async wrapToolCall(request, next, runtime) {
      const name = request.toolCall.name;
      const path = requestedPath(request);
      if (path === null || (!READ_TOOLS.has(name) && !GATED_WRITE_TOOLS.has(name))) {
        return next(request);
      }
      const scope = { userId: runtime.userId, threadId: runtime.threadId ?? "" };
      const current = () => options.fileHash(scope, path).catch(() => undefined);
      return locks.runExclusive(`${scope.threadId}\u0000${path}`, async () => {
        if (GATED_WRITE_TOOLS.has(name)) {
          const hash = await current();
          // Missing (null) or uninspectable (undefined): nothing to protect, or let the tool say.
          if (hash === null || hash === undefined || latestMark(request, path) === hash) {
            return next(request);
          }
          runtime.record("wrapToolCall", "write_blocked", { tool: name, path });
          return blockedWrite(request, path);
        }
        const result = await next(request);
        const hash = await current();
        if (typeof hash === "string") stampReadMark(result, path, hash);
        return result;
      });
    },
  };
}

function requestedPath(request: ToolCallRequest): string | null {
  const path: unknown = request.toolCall.args.path;
  return typeof path === "string" && path !== "" ? posix.normalize(path) : null;
}

function latestMark(request: ToolCallRequest, path: string): string | null {
  for (const message of [...request.state.messages].reverse()) {
    if (!isToolMessage(message)) continue;
    const mark: unknown = message.additional_kwargs[READ_MARK_KEY];
    if (typeof mark === "object" && mark !== null && "path" in mark && mark.path === path) {
      return "hash" in mark && typeof mark.hash === "string" ? mark.hash : null;
    }
  }
  return null;
}

function stampReadMark(result: ToolCallResult, path: string, hash: string): void {
  const message = ToolMessage.isInstance(result) ? result : lastToolMessageOf(result);
  if (!message || message.status === "error") return;
  // A refused read ("Error: invalid line range") showed nothing, so it marks nothing.
  if (typeof message.content === "string" && message.content.startsWith("Error:")) return;
  message.additional_kwargs = { ...message.additional_kwargs, [READ_MARK_KEY]: { path, hash } };
}

function lastToolMessageOf(result: ToolCallResult): ToolMessage | undefined {
  if (ToolMessage.isInstance(result)) return result;
  const update: unknown = result.update;
  if (typeof update !== "object" || update === null || !("messages" in update)) return undefined;
  const messages: unknown = update.messages;
  if (!Array.isArray(messages)) return undefined;
  return messages.filter((m: unknown): m is ToolMessage => ToolMessage.isInstance(m)).at(-1);
}

function blockedWrite(request: ToolCallRequest, path: string): ToolMessage {
  const tool = request.toolCall.name;
  return new ToolMessage({
    content:
      `Error: ${tool} blocked — ${path} already exists and you have not read its current version. ` +
      "Any write invalidates earlier reads, so read before every change: call read_file on it (a " +
      "range is enough, e.g. the last ~30 lines before an append), check what is already there, then retry.",
    tool_call_id: request.toolCall.id ?? "",
    name: tool,
    status: "error",
  });
}
