import { createHash } from "node:crypto";
import type { ToolCall } from "@langchain/core/messages/tool";

/** Args that identify "the same call" for tools that have them. */
const SALIENT_KEYS = ["path", "url", "query", "command", "pattern", "glob", "cmd"];
const READ_BUCKET_LINES = 200;

/**
 * A signature of one answer's tool calls: each call reduced to its name and the args that make
 * it "the same call", sorted, hashed. Two answers asking for the same work get the same hash
 * even when incidental args (a description) or the order differ.
 */
export function toolCallsSignature(calls: readonly ToolCall[]): string {
  const keys = calls.map(callKey).sort();
  return createHash("md5").update(keys.join("\n")).digest("hex").slice(0, 12);
}

function callKey(call: ToolCall): string {
  return `${call.name}:${stableJson(salientArgs(call))}`;
}

function salientArgs(call: ToolCall): unknown {
  const args: Record<string, unknown> = call.args ?? {};
  if (call.name === "read_file") {
    // Reading nearby line ranges of one file is the same work, in 200-line buckets.
    return {
      path: args.path,
      start: bucket(args.start_line),
      end: bucket(args.end_line),
    };
  }
  if (call.name === "write_file" || call.name === "str_replace") return args;
  const salient = Object.fromEntries(
    SALIENT_KEYS.filter((key) => key in args).map((k) => [k, args[k]]),
  );
  return Object.keys(salient).length > 0 ? salient : args;
}

function bucket(line: unknown): number | null {
  return typeof line === "number" ? Math.floor(Math.max(0, line - 1) / READ_BUCKET_LINES) : null;
}

/** JSON with sorted keys, so `{a, b}` and `{b, a}` agree. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
