import { lstat } from "node:fs/promises";
import { publishFileAtomically } from "../../../../core/atomic-file.js";
import type { FawnPaths, ThreadScope } from "../../../../core/paths.js";
import { resolveWritableTarget } from "../../user-data-path.js";
import type { CaptureFormat } from "./browserless-screenshot.js";

const MAX_STEM_CHARS = 80;
const MAX_DEDUPE_ATTEMPTS = 100;

/**
 * A safe file name for a capture: the model's name (folders dropped, odd characters replaced)
 * or one made from the URL's host and path, with the format's extension.
 */
export function captureFileName(requested: string | undefined, url: URL, format: CaptureFormat) {
  const base =
    requested
      ?.split(/[\\/]/)
      .at(-1)
      ?.replace(/\.[A-Za-z0-9]{1,5}$/, "") ?? "";
  const fallback = `${url.hostname}${url.pathname === "/" ? "" : url.pathname}`;
  const stem = slug(base) || slug(fallback) || "capture";
  return `${stem}.${format === "jpeg" ? "jpg" : format}`;
}

/** Writes the image under the thread's outputs (never over an existing file); its virtual path. */
export async function writeCapture(
  paths: FawnPaths,
  scope: ThreadScope,
  fileName: string,
  image: Buffer,
): Promise<string> {
  const dot = fileName.lastIndexOf(".");
  const stem = fileName.slice(0, dot);
  const extension = fileName.slice(dot);
  for (let attempt = 0; attempt < MAX_DEDUPE_ATTEMPTS; attempt += 1) {
    const name = attempt === 0 ? fileName : `${stem}-${attempt + 1}${extension}`;
    const target = await resolveWritableTarget(paths, scope, `/mnt/user-data/outputs/${name}`);
    if (await exists(target.hostPath)) continue;
    await publishFileAtomically(target.hostPath, image);
    return target.virtualPath;
  }
  throw new Error(`too many captures named ${fileName} in this thread`);
}

function slug(text: string): string {
  return text
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, MAX_STEM_CHARS);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
