import { constants } from "node:fs";
import { type FileHandle, open, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { NotFoundError } from "../../core/errors.js";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";

/** The folders whose files the artifact route serves: a thread's deliverables. */
const SERVED_PREFIX = ["mnt", "user-data", "outputs"];

export interface OpenedArtifact {
  handle: FileHandle;
  size: number;
  fileName: string;
}

/**
 * Opens `mnt/user-data/outputs/<file>` of the thread for reading. Every refusal — outside the
 * outputs folder, `..`, NUL, a symlink leading out, not a regular file, missing — is the same
 * 404, so a probe learns nothing about what exists outside. The opened file is checked again
 * after `open`: code in the sandbox can rename and symlink inside outputs at any moment, and a
 * swap between the path check and the open must not hand out a file from elsewhere.
 */
export async function openArtifact(
  paths: FawnPaths,
  scope: ThreadScope,
  requested: string,
): Promise<OpenedArtifact> {
  const notFound = new NotFoundError(`Artifact not found: ${requested}`);
  const segments = servedSegments(requested);
  if (segments === null) throw notFound;
  const outputsDir = paths.threadPaths(scope).outputsDir;
  const rootReal = await realpath(outputsDir).catch(() => null);
  const real = await realpath(join(outputsDir, ...segments)).catch(() => null);
  if (rootReal === null || real === null || !isInside(rootReal, real)) throw notFound;
  // O_NONBLOCK: a FIFO planted in outputs must not hold a thread-pool thread waiting for a writer.
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const handle = await open(real, flags).catch(() => null);
  if (handle === null) throw notFound;
  try {
    const opened = await handle.stat();
    const named = await stat(real).catch(() => null);
    const stillReal = await realpath(real).catch(() => null);
    const sameFile =
      named !== null && named.dev === opened.dev && named.ino === opened.ino && stillReal === real;
    if (!opened.isFile() || !sameFile) throw notFound;
    return { handle, size: opened.size, fileName: segments.at(-1) ?? "artifact" };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The segments below the outputs folder, or null when the path is not a plain path inside it. */
function servedSegments(requested: string): string[] | null {
  if (requested.includes("\0") || requested.includes("\\")) return null;
  const segments = requested.split("/").filter((segment) => segment !== "");
  if (segments.some((segment) => segment === "." || segment === "..")) return null;
  if (!SERVED_PREFIX.every((part, index) => segments[index] === part)) return null;
  const below = segments.slice(SERVED_PREFIX.length);
  return below.length > 0 ? below : null;
}

function isInside(rootReal: string, candidateReal: string): boolean {
  const rel = relative(rootReal, candidateReal);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
