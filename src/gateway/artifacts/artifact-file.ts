import { type FileHandle, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { NotFoundError } from "../../core/errors.js";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";
import { foreignFileOf, openThreadFile } from "../../core/thread-file-identity.js";

/**
 * The folders whose files the artifact route serves: the thread's deliverables and the files the
 * user uploaded (their `artifact_url`). The workspace is the agent's scratch and stays private.
 */
const SERVED_FOLDERS = ["outputs", "uploads"] as const;
/** The thread folders a caller may open files in (`workspace` for server-side readers only). */
export type ThreadFolder = "outputs" | "uploads" | "workspace";
const USER_DATA_PREFIX = ["mnt", "user-data"];

export interface OpenedArtifact {
  handle: FileHandle;
  size: number;
  fileName: string;
  /** Where the file was found (its real path, inside the served folder). */
  realPath: string;
}

/**
 * Opens `mnt/user-data/{outputs,uploads}/<file>` of the thread for reading. Every refusal — outside
 * those folders, `..`, NUL, a symlink leading out, a hard link (a file with more than one link or
 * on another device), not a regular file, missing — is the same 404, so a probe learns nothing
 * about what exists outside. The opened file is checked again after `open` (`fstat` of the
 * handle): code in the sandbox can rename and link inside outputs at any moment, and a swap
 * between the path check and the open must not hand out a file from elsewhere.
 */
export async function openArtifact(
  paths: FawnPaths,
  scope: ThreadScope,
  requested: string,
  folders: readonly ThreadFolder[] = SERVED_FOLDERS,
): Promise<OpenedArtifact> {
  const notFound = new NotFoundError(`Artifact not found: ${requested}`);
  const served = servedSegments(requested, folders);
  if (served === null) throw notFound;
  const { folder, segments } = served;
  const thread = paths.threadPaths(scope);
  const root =
    folder === "outputs"
      ? thread.outputsDir
      : folder === "uploads"
        ? thread.uploadsDir
        : thread.workspaceDir;
  const rootReal = await realpath(root).catch(() => null);
  const real = await realpath(join(root, ...segments)).catch(() => null);
  if (rootReal === null || real === null || !isInside(rootReal, real)) throw notFound;
  const rootStat = await stat(rootReal).catch(() => null);
  const handle = await openThreadFile(real);
  if (handle === null || rootStat === null) {
    await handle?.close();
    throw notFound;
  }
  try {
    const opened = await handle.stat();
    const named = await stat(real).catch(() => null);
    const stillReal = await realpath(real).catch(() => null);
    const sameFile =
      named !== null && named.dev === opened.dev && named.ino === opened.ino && stillReal === real;
    if (foreignFileOf(opened, rootStat) !== null || !sameFile) throw notFound;
    return {
      handle,
      size: opened.size,
      fileName: segments.at(-1) ?? "artifact",
      realPath: real,
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The served folder and the segments below it, or null when the path is not a plain path inside one. */
function servedSegments(
  requested: string,
  folders: readonly ThreadFolder[],
): { folder: ThreadFolder; segments: string[] } | null {
  if (requested.includes("\0") || requested.includes("\\")) return null;
  const segments = requested.split("/").filter((segment) => segment !== "");
  if (segments.some((segment) => segment === "." || segment === "..")) return null;
  if (!USER_DATA_PREFIX.every((part, index) => segments[index] === part)) return null;
  const folder = folders.find((name) => name === segments[USER_DATA_PREFIX.length]);
  const below = segments.slice(USER_DATA_PREFIX.length + 1);
  return folder && below.length > 0 ? { folder, segments: below } : null;
}

function isInside(rootReal: string, candidateReal: string): boolean {
  const rel = relative(rootReal, candidateReal);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
