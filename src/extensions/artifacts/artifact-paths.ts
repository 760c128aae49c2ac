import { AgentRunError } from "../../core/errors.js";
import { VIRTUAL_USER_DATA } from "../../core/paths.js";
import type { ArtifactReceiptJson } from "../../ports/run-types.js";

/** The folders files are handed over from and to; the workspace stays the agent's scratch. */
const READABLE_FOLDERS = new Set(["outputs", "uploads"]);

/** Where a readable artifact lies below `/mnt/user-data`: its folders and its file name. */
export interface ArtifactLocation {
  folders: string[];
  name: string;
}

/** `/mnt/user-data/{outputs,uploads}/…/<file>` split, or a 422 for anything else. */
export function readableLocation(path: string): ArtifactLocation {
  const refused = new AgentRunError(
    422,
    `Artifact path must name a file under ${VIRTUAL_USER_DATA}/outputs/ or ${VIRTUAL_USER_DATA}/uploads/`,
  );
  if (path.includes("\0") || path.includes("\\") || !path.startsWith(`${VIRTUAL_USER_DATA}/`)) {
    throw refused;
  }
  const segments = path.slice(VIRTUAL_USER_DATA.length + 1).split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) throw refused;
  const name = segments.pop();
  const [folder] = segments;
  if (name === undefined || folder === undefined || !READABLE_FOLDERS.has(folder)) throw refused;
  return { folders: segments, name };
}

export function uploadPath(filename: string): string {
  return `${VIRTUAL_USER_DATA}/uploads/${filename}`;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * A receipt as the host issues them: a file directly in uploads, named by `path`, with a digest
 * and size. Anything else is a 422 (a receipt that names another file is not one of ours).
 */
export function checkReceipt(
  receipt: ArtifactReceiptJson,
  checkName: (name: string) => string,
): ArtifactReceiptJson {
  const { filename, path, sha256, size } = receipt;
  const valid =
    typeof filename === "string" &&
    path === uploadPath(filename) &&
    typeof sha256 === "string" &&
    SHA256_HEX.test(sha256) &&
    Number.isSafeInteger(size) &&
    size >= 0;
  if (!valid || checkName(filename) !== filename) {
    throw new AgentRunError(
      422,
      "Invalid artifact receipt: pass back a receipt importArtifact returned",
    );
  }
  return { filename, path, sha256, size };
}
