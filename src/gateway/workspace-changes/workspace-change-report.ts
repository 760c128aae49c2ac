import { createHash } from "node:crypto";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";
import { openArtifact } from "../artifacts/artifact-file.js";
import { changeRootOf, type FileEdit, type FileEdits } from "./journal-file-edits.js";

/** The reference's limits, reported as they are applied. */
export const WORKSPACE_CHANGE_LIMITS = {
  max_files: 200,
  max_scanned_files: 2000,
  max_file_bytes_for_diff: 256 * 1024,
  max_total_diff_bytes: 1024 * 1024,
};
/** Files larger than this are not hashed for `sha256_after`. */
const MAX_HASHED_BYTES = 8 * 1024 * 1024;
const BINARY_SAMPLE_BYTES = 8192;

/** Names the reference never shows a diff of (keys, tokens, credentials). */
const SENSITIVE = [
  /^\.env$/,
  /^\.env\..*/,
  /api_?key/,
  /\.key$/,
  /\.pem$/,
  /credential/,
  /password/,
  /private_key/,
  /secret/,
  /token/,
];

export type DiffUnavailable = "binary" | "large" | "sensitive" | "truncated" | "symlink";

export interface WorkspaceFileChange {
  path: string;
  root: string;
  status: "created" | "modified" | "deleted" | "symlink_created";
  binary: boolean;
  sensitive: boolean;
  size_before: number | null;
  size_after: number | null;
  sha256_before: string | null;
  sha256_after: string | null;
  diff: string;
  diff_truncated: boolean;
  diff_unavailable_reason: DiffUnavailable | null;
  additions: number;
  deletions: number;
  symlink: boolean;
  symlink_target_before: string | null;
  symlink_target_after: string | null;
}

export interface WorkspaceChangesReport {
  available: boolean;
  version: 1;
  summary: {
    created: number;
    modified: number;
    deleted: number;
    symlink_created: number;
    additions: number;
    deletions: number;
    truncated: boolean;
  };
  files: WorkspaceFileChange[];
  limits: typeof WORKSPACE_CHANGE_LIMITS;
}

export function isSensitivePath(path: string): boolean {
  return path
    .toLowerCase()
    .split("/")
    .some((part) => SENSITIVE.some((pattern) => pattern.test(part)));
}

function lines(text: string): string[] {
  const out = text.split("\n");
  if (out.at(-1) === "") out.pop();
  return out;
}

/** A unified-diff rendering of the edits: one hunk per edit (line numbers are not known). */
function diffOf(path: string, edits: FileEdit[], created: boolean) {
  const shown = path.replace(/^\/+/, "");
  const out = [created ? "--- /dev/null" : `--- a/${shown}`, `+++ b/${shown}`];
  let additions = 0;
  let deletions = 0;
  for (const edit of edits) {
    const removed = edit.kind === "replace" ? lines(edit.oldText) : [];
    const added = lines(edit.kind === "replace" ? edit.newText : edit.content);
    out.push(
      edit.kind === "write" && created && edit === edits[0]
        ? `@@ -0,0 +1,${added.length} @@`
        : `@@ -${removed.length} +${added.length} @@`,
    );
    for (const line of removed) out.push(`-${line}`);
    for (const line of added) out.push(`+${line}`);
    additions += added.length;
    deletions += removed.length;
  }
  return { diff: `${out.join("\n")}\n`, additions, deletions };
}

/** The file as it is now: size, sha256 (when not huge) and whether it looks binary. */
async function currentFile(paths: FawnPaths, scope: ThreadScope, path: string) {
  const opened = await openArtifact(paths, scope, path.slice(1), ["workspace", "outputs"]).catch(
    () => null,
  );
  if (opened === null) return null;
  try {
    if (opened.size > MAX_HASHED_BYTES) return { size: opened.size, sha256: null, binary: false };
    const bytes = await opened.handle.readFile();
    const binary = bytes.subarray(0, BINARY_SAMPLE_BYTES).includes(0);
    return { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), binary };
  } finally {
    await opened.handle.close();
  }
}

/**
 * The reference's workspace-changes answer for one run, built from what the run's journal
 * recorded (`fileEditsOf`) plus the outputs its delivery check saw change: a file first written
 * whole is `created`, any other `modified` (the journal does not say whether a file existed
 * before a whole write). Sizes and hashes are the files' as they are now; diffs come from the
 * recorded edits, within the reference's limits.
 */
export async function buildWorkspaceChanges(
  paths: FawnPaths,
  scope: ThreadScope,
  edits: FileEdits[],
  producedPaths: string[],
): Promise<WorkspaceChangesReport> {
  const all = [...edits];
  for (const produced of producedPaths) {
    const target = changeRootOf(produced);
    if (target && !all.some((entry) => entry.path === target.path)) {
      all.push({ ...target, edits: [] });
    }
  }
  all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const limits = WORKSPACE_CHANGE_LIMITS;
  const summary = { ...emptySummary(), truncated: all.length > limits.max_files };
  const files: WorkspaceFileChange[] = [];
  let diffBytes = 0;
  for (const entry of all.slice(0, limits.max_files)) {
    const created = entry.edits[0]?.kind === "write";
    const now = await currentFile(paths, scope, entry.path);
    const sensitive = isSensitivePath(entry.path);
    const rendered = diffOf(entry.path, entry.edits, created);
    let reason: DiffUnavailable | null = null;
    if (sensitive) reason = "sensitive";
    else if (now?.binary) reason = "binary";
    else if (rendered.diff.length > limits.max_file_bytes_for_diff) reason = "large";
    else if (diffBytes + rendered.diff.length > limits.max_total_diff_bytes) reason = "truncated";
    const shown = reason === null && entry.edits.length > 0;
    if (shown) diffBytes += rendered.diff.length;
    const counted = reason === "sensitive" || reason === "binary" ? null : rendered;
    files.push({
      path: entry.path,
      root: entry.root,
      status: created ? "created" : "modified",
      binary: now?.binary ?? false,
      sensitive,
      size_before: null,
      size_after: now?.size ?? null,
      sha256_before: null,
      sha256_after: sensitive ? null : (now?.sha256 ?? null),
      diff: shown ? rendered.diff : "",
      diff_truncated: reason === "truncated",
      diff_unavailable_reason: reason,
      additions: counted?.additions ?? 0,
      deletions: counted?.deletions ?? 0,
      symlink: false,
      symlink_target_before: null,
      symlink_target_after: null,
    });
    if (created) summary.created += 1;
    else summary.modified += 1;
    summary.additions += counted?.additions ?? 0;
    summary.deletions += counted?.deletions ?? 0;
    if (reason === "truncated") summary.truncated = true;
  }
  return { available: files.length > 0, version: 1, summary, files, limits };
}

function emptySummary(): WorkspaceChangesReport["summary"] {
  return {
    created: 0,
    modified: 0,
    deleted: 0,
    symlink_created: 0,
    additions: 0,
    deletions: 0,
    truncated: false,
  };
}
