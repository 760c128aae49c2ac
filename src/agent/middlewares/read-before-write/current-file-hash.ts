import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { FawnPaths, ThreadScope } from "../../../core/paths.js";

/**
 * The sha256 of a thread file's current content, by virtual path; null when it does not exist.
 * Throws when it cannot be read (the gate then lets the tool report the problem itself).
 */
export type CurrentFileHash = (scope: ThreadScope, virtualPath: string) => Promise<string | null>;

/**
 * Reads the thread's folders on this host: the sandboxes mount exactly these folders at
 * `/mnt/user-data`, so the host file is what the tools read and write. Streamed, so a large file
 * costs no memory.
 */
export function hostFileHash(paths: FawnPaths): CurrentFileHash {
  return async (scope, virtualPath) => {
    const hostPath = paths.resolveVirtualPath(scope, virtualPath);
    const hash = createHash("sha256");
    try {
      for await (const chunk of createReadStream(hostPath)) {
        hash.update(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      }
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    return hash.digest("hex");
  };
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof Error &&
    "code" in error &&
    (error.code === "ENOENT" || error.code === "ENOTDIR")
  );
}
