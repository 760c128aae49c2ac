import { lstat, readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { VIRTUAL_USER_DATA } from "../../core/paths.js";
import type { DeliveryContent } from "../journal/run-journal.js";

/** File identity before the run: size and modification time of every regular file. */
export type OutputsSnapshot = Map<string, string>;

/**
 * Finds the files a run created or modified under the thread's outputs folder, so delivery can
 * be checked against what the agent presented. Replaceable in tests (e.g. to hold verification).
 */
export interface ProducedOutputsScanner {
  snapshot(outputsDir: string): Promise<OutputsSnapshot>;
  /** Virtual paths (`/mnt/user-data/outputs/...`) of regular, non-symlink files new or changed. */
  produced(outputsDir: string, before: OutputsSnapshot): Promise<string[]>;
}

const VIRTUAL_OUTPUTS = `${VIRTUAL_USER_DATA}/outputs`;

/**
 * Top-level outputs folders that hold process feedback, not deliverables: the tool output budget
 * saves oversized outputs in `.tool-results` (the default `tool_output.storage_subdir`) for the
 * model to read back. Counting them would fail delivery for any run that externalized an output.
 */
const NOT_DELIVERABLE_DIRS = new Set([".tool-results"]);

async function walk(root: string, dir: string, into: OutputsSnapshot): Promise<void> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // A missing folder has no outputs.
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!(dir === root && NOT_DELIVERABLE_DIRS.has(entry.name))) await walk(root, path, into);
    } else if (entry.isFile()) {
      const info = await lstat(path).catch(() => null);
      if (info?.isFile())
        into.set(relative(root, path).split(sep).join("/"), `${info.size}:${info.mtimeMs}`);
    }
  }
}

export const fileSystemOutputsScanner: ProducedOutputsScanner = {
  async snapshot(outputsDir) {
    const files: OutputsSnapshot = new Map();
    await walk(outputsDir, outputsDir, files);
    return files;
  },
  async produced(outputsDir, before) {
    const after = await this.snapshot(outputsDir);
    const changed: string[] = [];
    for (const [file, identity] of after) {
      if (before.get(file) !== identity) changed.push(`${VIRTUAL_OUTPUTS}/${file}`);
    }
    return changed.sort();
  },
};

export const DELIVERY_INCOMPLETE_ERROR =
  "Artifact delivery incomplete: no produced output artifact was presented";

export interface VerifiedDelivery extends DeliveryContent {
  verification?: {
    source: "outputs_changed";
    requirement: "present_files_matches_produced_output";
  };
  produced_paths?: string[];
  presented_paths?: string[];
  matched_paths?: string[];
  stage?: "presented" | "mismatched" | "not_started";
  satisfied?: boolean;
}

/**
 * A produced file counts as presented when a presented path equals it or is a folder above it.
 * Any tool that adds to the thread's artifacts presents (present_files, web_capture), not only
 * present_files: a screenshot web_capture saved and showed is delivered.
 */
export function verifyDelivery(base: DeliveryContent, produced: string[]): VerifiedDelivery {
  if (produced.length === 0) return base;
  const presented = base.paths;
  const matched = produced.filter((file) =>
    presented.some((shown) => {
      const folder = shown.replace(/\/+$/, "");
      return file === folder || file.startsWith(`${folder}/`);
    }),
  );
  const stage =
    matched.length > 0 ? "presented" : presented.length > 0 ? "mismatched" : "not_started";
  return {
    ...base,
    verification: {
      source: "outputs_changed",
      requirement: "present_files_matches_produced_output",
    },
    produced_paths: produced,
    presented_paths: presented,
    matched_paths: matched,
    stage,
    satisfied: matched.length > 0,
  };
}
