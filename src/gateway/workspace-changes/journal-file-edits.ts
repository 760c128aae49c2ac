import { posix } from "node:path";
import type { RunEvent } from "../../ports/run-event-store.js";

/** The folders whose changes a run reports (uploads are the user's own files). */
export const CHANGE_ROOTS = ["workspace", "outputs"] as const;
export type ChangeRoot = (typeof CHANGE_ROOTS)[number];

export type FileEdit =
  | { kind: "write"; content: string }
  | { kind: "append"; content: string }
  | { kind: "replace"; oldText: string; newText: string };

/** What a run did to one file, in order. */
export interface FileEdits {
  path: string;
  root: ChangeRoot;
  edits: FileEdit[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `/mnt/user-data/<root>/…` normalized, or null for any other path. */
export function changeRootOf(path: string): { path: string; root: ChangeRoot } | null {
  if (!path.startsWith("/") || path.includes("\0")) return null;
  const normalized = posix.normalize(path);
  for (const root of CHANGE_ROOTS) {
    const prefix = `/mnt/user-data/${root}/`;
    if (normalized.startsWith(prefix) && normalized.length > prefix.length) {
      return { path: normalized, root };
    }
  }
  return null;
}

function editOf(name: unknown, args: Record<string, unknown>): FileEdit | null {
  if (name === "write_file" && typeof args.content === "string") {
    return args.append === true
      ? { kind: "append", content: args.content }
      : { kind: "write", content: args.content };
  }
  if (
    name === "str_replace" &&
    typeof args.old_str === "string" &&
    typeof args.new_str === "string" &&
    args.old_str !== ""
  ) {
    return { kind: "replace", oldText: args.old_str, newText: args.new_str };
  }
  return null;
}

/** Tool results that report a failure: an error status, or the tools' `Error: …` answers. */
function failed(result: Record<string, unknown>): boolean {
  if (result.status === "error") return true;
  return typeof result.content === "string" && /^error\b/i.test(result.content.trim());
}

/**
 * The file edits a run's journal records: each `write_file` / `str_replace` call of an
 * `llm.ai.response` (the lead's and its sub-agents', which share the thread's folders) whose
 * `llm.tool.result` did not fail, grouped by file in call order. Files written by other means
 * (a shell command) are not in the journal; `producedPaths` adds those the run's delivery check
 * found changed under outputs.
 */
export function fileEditsOf(events: readonly RunEvent[]): FileEdits[] {
  const calls = new Map<string, { path: string; root: ChangeRoot; edit: FileEdit }>();
  const succeeded = new Set<string>();
  const order: string[] = [];
  for (const event of events) {
    const content = event.content;
    if (!isRecord(content)) continue;
    if (event.event_type === "llm.ai.response" && Array.isArray(content.tool_calls)) {
      for (const call of content.tool_calls) {
        if (!isRecord(call) || typeof call.id !== "string" || !isRecord(call.args)) continue;
        const target = typeof call.args.path === "string" ? changeRootOf(call.args.path) : null;
        const edit = editOf(call.name, call.args);
        if (!target || !edit || calls.has(call.id)) continue;
        calls.set(call.id, { ...target, edit });
        order.push(call.id);
      }
    } else if (event.event_type === "llm.tool.result" && typeof content.tool_call_id === "string") {
      if (!failed(content)) succeeded.add(content.tool_call_id);
    }
  }
  const byPath = new Map<string, FileEdits>();
  for (const id of order) {
    const call = calls.get(id);
    if (!call || !succeeded.has(id)) continue;
    const entry = byPath.get(call.path) ?? { path: call.path, root: call.root, edits: [] };
    entry.edits.push(call.edit);
    byPath.set(call.path, entry);
  }
  return [...byPath.values()];
}

/** `run.delivery`'s `produced_paths`: outputs files the run created or changed. */
export function producedPathsOf(events: readonly RunEvent[]): string[] {
  const delivery = events.findLast((event) => event.event_type === "run.delivery");
  const produced = isRecord(delivery?.content) ? delivery.content.produced_paths : undefined;
  return Array.isArray(produced)
    ? produced.filter((path): path is string => typeof path === "string")
    : [];
}
