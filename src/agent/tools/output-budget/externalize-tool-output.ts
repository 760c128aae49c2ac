import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { type PublishFileOps, publishFileAtomically } from "../../../core/atomic-file.js";
import { describeError } from "../../../core/errors.js";
import { type Logger, rootLogger } from "../../../core/logger.js";
import { VIRTUAL_USER_DATA } from "../../../core/paths.js";

export interface ExternalizeTarget {
  toolName: string;
  toolCallId: string;
  /** Host path of the thread's `/mnt/user-data/outputs`. */
  outputsPath: string;
  /** Folder under outputs (default `.tool-results`). */
  storageSubdir: string;
}

/** Fault-injection seams (`test/seeds/externalize-failure-cleanup.test.ts`); production uses the defaults. */
export interface ExternalizeSeams {
  ops?: PublishFileOps;
  /** The random part of the temp file name (a test forces a collision with it). */
  randomSuffix?: () => string;
  logger?: Logger;
}

/** Hex digits of the content hash in the file name: plenty to keep distinct outputs apart. */
const HASH_CHARS = 24;
const LOG_TOOLS = new Set(["bash", "bash_tool", "web_fetch"]);

/**
 * Saves a tool's full output under `<outputs>/<storage_subdir>/` and returns its virtual path,
 * or null when it could not be saved (the caller then truncates instead). Seed 000's contract:
 * the name is content-addressed (same content → same file, different content → different
 * file, no randomness and no call id), and the file is published atomically through an
 * exclusive temp file in the same folder (`publishFileAtomically`): a failed write leaves no
 * file, a previously published file survives, concurrent writers never share a temp, a temp we
 * did not create is never removed, and the published mode is 0o666 minus the umask — also when
 * it replaces an older copy, since every call writes and renames (no "already exists" shortcut).
 */
export async function externalizeToolOutput(
  content: string,
  target: ExternalizeTarget,
  seams: ExternalizeSeams = {},
): Promise<string | null> {
  const logger = seams.logger ?? rootLogger;
  const subdirSegments = target.storageSubdir.split(/[/\\]/).filter((s) => s !== "" && s !== ".");
  if (isAbsolute(target.storageSubdir) || subdirSegments.includes("..")) return null;
  if (subdirSegments.length === 0) return null;
  const storageDir = join(target.outputsPath, ...subdirSegments);
  const fileName = externalizedFileName(target.toolName, content);
  const finalPath = join(storageDir, fileName);
  if (relative(storageDir, finalPath) !== fileName) return null;

  try {
    await mkdir(storageDir, { recursive: true });
    await publishFileAtomically(finalPath, content, {
      ...(seams.ops ? { ops: seams.ops } : {}),
      ...(seams.randomSuffix ? { randomSuffix: seams.randomSuffix } : {}),
    });
  } catch (error) {
    logger.warn(
      { tool: target.toolName, toolCallId: target.toolCallId, error: describeError(error) },
      "tool output could not be externalized; falling back to truncation",
    );
    return null;
  }
  return `${VIRTUAL_USER_DATA}/outputs/${subdirSegments.join("/")}/${fileName}`;
}

/** `<tool>-<sha256 prefix>.<log|txt>`: identical content always maps to the identical name. */
export function externalizedFileName(toolName: string, content: string): string {
  const digest = createHash("sha256").update(content, "utf8").digest("hex").slice(0, HASH_CHARS);
  const extension = LOG_TOOLS.has(toolName) ? "log" : "txt";
  return `${safeToolName(toolName)}-${digest}.${extension}`;
}

/** A tool name as one harmless file-name segment. */
function safeToolName(toolName: string): string {
  const base = toolName.split(/[/\\]/).at(-1) ?? "";
  const cleaned = base
    .replaceAll("..", "")
    .replace(/[^A-Za-z0-9_.-]/g, "_")
    .replace(/^\.+/, "");
  return cleaned === "" ? "unknown" : cleaned;
}
