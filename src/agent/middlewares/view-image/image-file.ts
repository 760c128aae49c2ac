import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { extname, relative, sep } from "node:path";
import type { FawnPaths, ThreadScope } from "../../../core/paths.js";

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

const MIME_BY_EXTENSION: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".gif": "image/gif",
};

export interface ImageFile {
  virtualPath: string;
  hostPath: string;
  mimeType: string;
  bytes: Buffer;
}

/** A refusal the model reads; the message echoes the path it gave. */
export class ImageFileError extends Error {}

/**
 * Reads an image the model asked to see: it must be in the thread's
 * workspace, uploads or outputs (symlinks may not lead out), have an image extension whose magic
 * bytes match, be at most 20 MiB, and not change size while being read.
 */
export async function readThreadImage(
  paths: FawnPaths,
  scope: ThreadScope,
  virtualPath: string,
): Promise<ImageFile> {
  let hostPath: string;
  try {
    hostPath = paths.resolveVirtualPath(scope, virtualPath);
  } catch {
    throw new ImageFileError(
      `Error: Only images under /mnt/user-data can be viewed: ${virtualPath}`,
    );
  }
  const normalized = paths.toVirtualPath(scope, hostPath);
  if (!/^\/mnt\/user-data\/(workspace|uploads|outputs)\//.test(normalized)) {
    throw new ImageFileError(
      `Error: Only images in /mnt/user-data/{workspace,uploads,outputs} can be viewed: ${virtualPath}`,
    );
  }
  const mimeType = MIME_BY_EXTENSION[extname(hostPath).toLowerCase()];
  if (!mimeType) {
    throw new ImageFileError(
      `Error: Unsupported image type: ${virtualPath} (use .jpg, .jpeg, .png, .webp or .gif)`,
    );
  }
  const root = await realpath(paths.threadPaths(scope).userDataDir).catch(() => null);
  const real = await realpath(hostPath).catch(() => null);
  if (!root || !real) throw new ImageFileError(`Error: File not found: ${virtualPath}`);
  const rel = relative(root, real);
  if (rel === "" || rel.startsWith(`..${sep}`) || rel === "..") {
    throw new ImageFileError(`Error: Permission denied: ${virtualPath}`);
  }
  const bytes = await readStable(real, virtualPath);
  if (!magicMatches(mimeType, bytes)) {
    throw new ImageFileError(
      `Error: File content is not a valid ${mimeType} image: ${virtualPath}`,
    );
  }
  return { virtualPath: normalized, hostPath: real, mimeType, bytes };
}

/** Reads the file whole, refusing it if it is too big or its size changes under us. */
export async function readStable(hostPath: string, shownAs: string): Promise<Buffer> {
  // O_NONBLOCK: a FIFO named like an image must not hold a thread-pool thread forever.
  const handle = await open(hostPath, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (!handle) throw new ImageFileError(`Error: File not found: ${shownAs}`);
  try {
    const before = await handle.stat();
    if (!before.isFile()) throw new ImageFileError(`Error: File not found: ${shownAs}`);
    if (before.size > MAX_IMAGE_BYTES) {
      throw new ImageFileError(`Error: Image is larger than 20 MiB: ${shownAs}`);
    }
    const bytes = await handle.readFile();
    if (bytes.length !== before.size || (await handle.stat()).size !== before.size) {
      throw new ImageFileError(`Error: Image changed while it was being read: ${shownAs}`);
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

function magicMatches(mimeType: string, bytes: Buffer): boolean {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  switch (mimeType) {
    case "image/png":
      return starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case "image/jpeg":
      return starts(0xff, 0xd8, 0xff);
    case "image/gif":
      return bytes.subarray(0, 6).toString("latin1").startsWith("GIF8");
    case "image/webp":
      return (
        bytes.subarray(0, 4).toString("latin1") === "RIFF" &&
        bytes.subarray(8, 12).toString("latin1") === "WEBP"
      );
    default:
      return false;
  }
}
