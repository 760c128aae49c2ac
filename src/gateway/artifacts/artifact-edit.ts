import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { z } from "zod";
import { publishFileAtomically } from "../../core/atomic-file.js";
import {
  BadRequestError,
  ConflictError,
  type FawnError,
  PayloadTooLargeError,
} from "../../core/errors.js";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";
import { openArtifact } from "./artifact-file.js";

/** The reference's cap on an editable artifact, before and after the edit. */
export const MAX_EDITABLE_ARTIFACT_BYTES = 2 * 1024 * 1024;
const EDITABLE_PREFIX = "mnt/user-data/outputs/";

export const artifactUpdateBody = z.object({
  // Counted again in bytes below; this bounds the parse.
  content: z.string().max(MAX_EDITABLE_ARTIFACT_BYTES),
  expected_sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex characters"),
});

export interface ArtifactUpdate {
  path: string;
  sha256: string;
  size: number;
}

export function sha256Hex(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** 415: what the reference answers for content the editor cannot hold. */
function unsupported(message: string): FawnError {
  return new BadRequestError(message, { status: 415 });
}

/**
 * Where an edit may go: a file under `mnt/user-data/outputs/` (the deliverables; uploads are the
 * user's own originals), never a `.skill` archive or a member of one. Answers the path as the
 * route's `path` (leading slash).
 */
export function editableArtifactPath(requested: string): string {
  const stripped = requested.replace(/^\/+/, "");
  if (!stripped.startsWith(EDITABLE_PREFIX)) {
    throw new BadRequestError("Only files in /mnt/user-data/outputs can be edited.");
  }
  if (stripped.endsWith(".skill") || stripped.includes(".skill/")) {
    throw unsupported("Skill archives cannot be edited in the artifacts panel.");
  }
  return `/${stripped}`;
}

/**
 * Replaces an existing UTF-8 text artifact when its current bytes hash to `expectedSha256`;
 * otherwise 412 with the current hash (`current_sha256`) and nothing written. The file is found
 * with the artifact route's rules (inside outputs, a regular file of its own, else 404) and the
 * new bytes are published atomically (temp file, fsync, rename), keeping the file's mode. The
 * caller holds the thread's operation slot, so no run writes the file meanwhile.
 */
export async function updateArtifact(
  paths: FawnPaths,
  scope: ThreadScope,
  path: string,
  update: { content: string; expectedSha256: string },
): Promise<ArtifactUpdate> {
  const next = Buffer.from(update.content, "utf8");
  if (next.length > MAX_EDITABLE_ARTIFACT_BYTES) {
    throw new PayloadTooLargeError(
      `Artifact is too large to edit: at most ${MAX_EDITABLE_ARTIFACT_BYTES} bytes.`,
    );
  }
  if (next.includes(0)) throw unsupported("Binary content cannot be saved as an artifact.");
  const artifact = await openArtifact(paths, scope, path.slice(1));
  let current: Buffer;
  let mode: number;
  try {
    if (artifact.size > MAX_EDITABLE_ARTIFACT_BYTES) {
      throw new PayloadTooLargeError(
        `Artifact is too large to edit: at most ${MAX_EDITABLE_ARTIFACT_BYTES} bytes.`,
      );
    }
    mode = (await artifact.handle.stat()).mode & 0o777;
    current = await artifact.handle.readFile();
  } finally {
    await artifact.handle.close();
  }
  if (current.length > MAX_EDITABLE_ARTIFACT_BYTES) {
    throw new PayloadTooLargeError("Artifact is too large to edit.");
  }
  if (current.includes(0)) throw unsupported("Binary artifacts cannot be edited.");
  if (!isUtf8(current)) throw unsupported("Only UTF-8 text artifacts can be edited.");
  const currentSha256 = sha256Hex(current);
  if (currentSha256 !== update.expectedSha256) {
    throw new ConflictError(
      "Artifact changed since it was opened; reload it and apply your edit again.",
      { status: 412, details: { current_sha256: currentSha256 } },
    );
  }
  await publishFileAtomically(artifact.realPath, next, { mode });
  return { path, sha256: sha256Hex(next), size: next.length };
}
