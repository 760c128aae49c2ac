import type { ChatMessage } from "../chat/message-groups.js";

/** A `write_file` call of the conversation: its file and the text it writes (so far). */
export interface FileWrite {
  toolCallId: string;
  path: string;
  content: string;
  /** The tool's result has arrived: the file on disk now holds the write (unless it failed). */
  done: boolean;
  /** The tool answered with an error: nothing was written. */
  failed: boolean;
}

/**
 * Every `write_file` call in the messages, oldest first. While a model streams a call, the SDK
 * re-parses its partial JSON arguments, so `content` grows as the call is written; a call whose
 * `path` has not arrived yet is left out.
 */
export function fileWrites(messages: readonly ChatMessage[]): FileWrite[] {
  const answered = new Map(
    messages
      .filter((message) => message.type === "tool" && message.tool_call_id)
      .map((message) => [message.tool_call_id, message.status === "error"]),
  );
  const writes: FileWrite[] = [];
  for (const message of messages) {
    if (message.type !== "ai") continue;
    for (const call of message.tool_calls ?? []) {
      if (call.name !== "write_file" || !call.id) continue;
      const path = call.args.path;
      if (typeof path !== "string" || !path.startsWith("/mnt/user-data/")) continue;
      const content = call.args.content;
      writes.push({
        toolCallId: call.id,
        path,
        content: typeof content === "string" ? content : "",
        done: answered.has(call.id),
        failed: answered.get(call.id) === true,
      });
    }
  }
  return writes;
}

/** Files the artifact route serves (the thread's outputs and uploads). */
export function isServedPath(path: string): boolean {
  return path.startsWith("/mnt/user-data/outputs/") || path.startsWith("/mnt/user-data/uploads/");
}
