import { lstat, mkdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import {
  type FawnPaths,
  type ThreadScope,
  USER_DATA_SUBDIRS,
  VIRTUAL_USER_DATA,
} from "../../core/paths.js";
import {
  type ForeignFile,
  foreignFileOf,
  openThreadFile,
} from "../../core/thread-file-identity.js";

/** A refused path; the message is what the model sees (it echoes the path the model gave). */
export class ToolPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolPathError";
  }
}

const WRITABLE_ROOTS = USER_DATA_SUBDIRS.map((dir) => `${VIRTUAL_USER_DATA}/${dir}`).join(", ");
const OUTPUTS_VIRTUAL = `${VIRTUAL_USER_DATA}/outputs`;

export interface UserDataTarget {
  /** The normalized virtual path (`/mnt/user-data/outputs/report.md`). */
  virtualPath: string;
  /** Host path with every existing ancestor resolved through symlinks. */
  hostPath: string;
}

/**
 * Maps a model-supplied virtual path to a host file for writing, creating parent folders. Refuses
 * anything outside the thread's workspace/uploads/outputs, any `..`, and any parent folder that
 * symlinks out of them (checked before and after the folders are created).
 */
export async function resolveWritableTarget(
  paths: FawnPaths,
  scope: ThreadScope,
  requested: string,
): Promise<UserDataTarget> {
  const { subdir, segments } = splitUserDataPath(requested);
  const threadPaths = await paths.ensureThreadDirs(scope);
  const rootReal = await realpath(join(threadPaths.userDataDir, subdir));
  const parentSegments = segments.slice(0, -1);
  await assertExistingAncestorInside(rootReal, parentSegments, requested);
  const parent = join(rootReal, ...parentSegments);
  await mkdir(parent, { recursive: true });
  const parentReal = await realpath(parent);
  assertInside(rootReal, parentReal, requested);
  const name = segments.at(-1) ?? "";
  return {
    virtualPath: `${VIRTUAL_USER_DATA}/${subdir}/${segments.join("/")}`,
    hostPath: join(parentReal, name),
  };
}

/**
 * Maps a path given to `present_files` (virtual, or a host path inside the outputs folder) to an
 * existing regular file inside the thread's outputs folder whose only link is there (a hard link
 * to a host file is refused: presenting it would publish that file).
 */
export async function resolvePresentableFile(
  paths: FawnPaths,
  scope: ThreadScope,
  requested: string,
): Promise<UserDataTarget> {
  const outsideOutputs = new ToolPathError(
    `Error: Only files in ${OUTPUTS_VIRTUAL} can be presented: ${requested}`,
  );
  const outputsDir = paths.threadPaths(scope).outputsDir;
  let virtualPath = requested;
  if (!requested.startsWith(`${VIRTUAL_USER_DATA}/`) && isAbsolute(requested)) {
    const rel = relative(outputsDir, requested);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) throw outsideOutputs;
    virtualPath = `${OUTPUTS_VIRTUAL}/${rel.split(sep).join("/")}`;
  }
  const { subdir, segments } = splitUserDataPath(virtualPath, outsideOutputs);
  if (subdir !== "outputs") throw outsideOutputs;
  const notFound = new ToolPathError(`Error: File not found: ${requested}`);
  let outputsReal: string;
  let fileReal: string;
  try {
    outputsReal = await realpath(outputsDir);
    fileReal = await realpath(join(outputsDir, ...segments));
  } catch {
    throw notFound;
  }
  assertInside(outputsReal, fileReal, requested);
  const foreign = await foreignFileAt(outputsReal, fileReal);
  if (foreign === "not_regular") throw notFound;
  if (foreign !== null) {
    throw new ToolPathError(
      `Error: Cannot present ${requested}: it is a hard link to a file outside ${OUTPUTS_VIRTUAL}. ` +
        `Write or copy the content into a new file in ${OUTPUTS_VIRTUAL} instead of linking it.`,
    );
  }
  return { virtualPath: `${OUTPUTS_VIRTUAL}/${segments.join("/")}`, hostPath: fileReal };
}

/** Opens the file (no symlink followed) and judges the handle's `fstat`, not the path's. */
async function foreignFileAt(folderReal: string, fileReal: string): Promise<ForeignFile | null> {
  const [folder, handle] = await Promise.all([
    stat(folderReal).catch(() => null),
    openThreadFile(fileReal),
  ]);
  if (handle === null) return "not_regular";
  try {
    return folder === null ? "not_regular" : foreignFileOf(await handle.stat(), folder);
  } finally {
    await handle.close();
  }
}

function splitUserDataPath(
  requested: string,
  outside = new ToolPathError(
    `Error: Only paths under ${WRITABLE_ROOTS} are allowed: ${requested}`,
  ),
): { subdir: string; segments: string[] } {
  if (requested.includes("\0")) throw permissionDenied(requested);
  const parts = requested.split("/");
  if (parts.some((part) => part === ".." || part.split("\\").includes(".."))) {
    throw permissionDenied(requested);
  }
  const segments = parts.filter((part) => part !== "" && part !== ".");
  if (!requested.startsWith("/") || segments[0] !== "mnt" || segments[1] !== "user-data") {
    throw outside;
  }
  const subdir = segments[2];
  const rest = segments.slice(3);
  if (!subdir || !USER_DATA_SUBDIRS.some((dir) => dir === subdir) || rest.length === 0) {
    throw outside;
  }
  return { subdir, segments: rest };
}

/** Walks up to the deepest parent that exists and proves it resolves inside `rootReal`. */
async function assertExistingAncestorInside(
  rootReal: string,
  parentSegments: string[],
  requested: string,
): Promise<void> {
  for (let depth = parentSegments.length; depth > 0; depth -= 1) {
    const candidate = join(rootReal, ...parentSegments.slice(0, depth));
    const real = await realpath(candidate).catch(() => null);
    if (real !== null) {
      assertInside(rootReal, real, requested);
      return;
    }
    // A dangling symlink would make mkdir fail or, worse, follow it later.
    const link = await lstat(candidate).catch(() => null);
    if (link?.isSymbolicLink()) throw permissionDenied(requested);
  }
}

function assertInside(rootReal: string, candidateReal: string, requested: string): void {
  const rel = relative(rootReal, candidateReal);
  if (rel === "") return;
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw permissionDenied(requested);
  }
}

function permissionDenied(requested: string): ToolPathError {
  return new ToolPathError(`Error: Permission denied: ${requested}`);
}
