import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { publishFileAtomically } from "../../core/atomic-file.js";
import { describeError } from "../../core/errors.js";
import type { FawnPaths } from "../../core/paths.js";
import { threadScopeOf } from "./thread-scope.js";
import { resolveWritableTarget, ToolPathError } from "./user-data-path.js";

/** One whole-file write at most this big; larger files are built with `append` (reference: 80 KiB). */
export const WRITE_FILE_MAX_BYTES = 80 * 1024;
const MAX_ERROR_CHARS = 2000;

/** Writes to one file run one at a time, across threads and runs of this process. */
const fileLocks = new KeyedMutex<string>();

const writeFileSchema = z.object({
  description: z.string().describe("Why you are writing this file, in a few words. Provide first."),
  path: z
    .string()
    .describe(
      "Absolute virtual path, e.g. /mnt/user-data/outputs/report.md or /mnt/user-data/workspace/notes.txt.",
    ),
  content: z.string().describe("The text to write."),
  append: z.boolean().default(false).describe("Append to the file instead of replacing it."),
});

export interface WriteFileToolOptions {
  paths: FawnPaths;
  maxBytes?: number;
}

/**
 * `write_file` against the thread's folders under FAWN_HOME (the host side of /mnt/user-data).
 * Whole-file writes are published atomically, so a reader never sees a half-written file. Every
 * failure is a string starting with `Error:`: the agent reads it and carries on.
 */
export function createWriteFileTool(options: WriteFileToolOptions) {
  const maxBytes = options.maxBytes ?? WRITE_FILE_MAX_BYTES;
  return tool(
    async (input, config) => {
      const size = Buffer.byteLength(input.content, "utf8");
      if (!input.append && maxBytes > 0 && size > maxBytes) {
        return (
          `Error: Content too large for one write_file call (${size} bytes; the limit is ${maxBytes}). ` +
          "Write a first section, then add the rest with append=true or str_replace."
        );
      }
      try {
        const target = await resolveWritableTarget(
          options.paths,
          threadScopeOf(config),
          input.path,
        );
        await fileLocks.runExclusive(target.hostPath, () =>
          input.append
            ? appendNoFollow(target.hostPath, input.content)
            : replaceFile(target.hostPath, input.content),
        );
        return "OK";
      } catch (error) {
        if (error instanceof ToolPathError) return error.message;
        return clip(`Error: Failed to write file '${input.path}': ${writeFailureReason(error)}`);
      }
    },
    {
      name: "write_file",
      description:
        "Write a text file. Deliverables go under /mnt/user-data/outputs, scratch files under /mnt/user-data/workspace. Parent folders are created.",
      schema: writeFileSchema,
    },
  );
}

async function replaceFile(hostPath: string, content: string): Promise<void> {
  const existing = await lstat(hostPath).catch(() => null);
  if (existing?.isDirectory()) throw new Error("path is a directory");
  await publishFileAtomically(hostPath, content);
}

/**
 * Appending through a symlink could write outside the thread; O_NOFOLLOW refuses the link.
 * O_NONBLOCK and the fstat check keep a planted FIFO from blocking the write forever.
 */
async function appendNoFollow(hostPath: string, content: string): Promise<void> {
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    constants.O_APPEND |
    constants.O_NOFOLLOW |
    constants.O_NONBLOCK;
  const handle = await open(hostPath, flags, 0o666);
  try {
    if (!(await handle.stat()).isFile()) throw new Error("not a regular file");
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}

/** Why a write failed, without the host path a Node fs error message carries. */
function writeFailureReason(error: unknown): string {
  const code =
    typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
      ? error.code
      : null;
  if (code === null) return describeError(error);
  return FS_FAILURES[code] ?? `file system error ${code}`;
}

const FS_FAILURES: Record<string, string> = {
  ENAMETOOLONG: "file name too long (at most 255 bytes a name)",
  EISDIR: "path is a directory",
  ENOTDIR: "a parent in the path is a file, not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ELOOP: "too many levels of symbolic links",
  ENOSPC: "no space left on the device",
  EROFS: "read-only file system",
  ENXIO: "not a regular file",
};

function clip(message: string): string {
  if (message.length <= MAX_ERROR_CHARS) return message;
  const half = Math.floor((MAX_ERROR_CHARS - 5) / 2);
  return `${message.slice(0, half)} ... ${message.slice(-half)}`;
}
