import { lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { ExternalizeTarget } from "../../src/agent/tools/output-budget/externalize-tool-output.js";

/** A fresh temporary folder for each test of the calling file, removed after it. */
export function tempFolderPerTest(prefix: string): { readonly path: string } {
  const folder = { path: "" };
  beforeEach(async () => {
    folder.path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await rm(folder.path, { recursive: true, force: true });
  });
  return folder;
}

/** Every regular file under `dir`, sorted (the seed's `rglob("*") if p.is_file()`). */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  const files: string[] = [];
  for (const entry of entries) {
    if ((await lstat(join(dir, entry))).isFile()) files.push(join(dir, entry));
  }
  return files.sort();
}

/** Where a `bash` tool call's oversized output is externalized, under `outputsPath/sub`. */
export function bashOutputTarget(outputsPath: string, toolCallId: string): ExternalizeTarget {
  return { toolName: "bash", toolCallId, outputsPath, storageSubdir: "sub" };
}
