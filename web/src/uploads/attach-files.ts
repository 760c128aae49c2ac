/** `GET /threads/{id}/uploads/limits`: the server's `uploads:` config. */
export interface UploadLimits {
  max_files: number;
  max_file_size: number;
  max_total_size: number;
}

/** Why a file was not attached; the composer says it as a sentence. */
export type AttachProblem =
  | { kind: "too_many"; max: number }
  | { kind: "too_large"; name: string; max: number }
  | { kind: "total_too_large"; max: number };

/**
 * Adds `adding` to `current` (a file of the same name replaces the earlier one, as the server
 * does) within the limits; files that would break one are left out and named in `problems`.
 */
export function attachWithinLimits(
  current: readonly File[],
  adding: readonly File[],
  limits: UploadLimits | null,
): { files: File[]; problems: AttachProblem[] } {
  const files = [...current];
  const problems: AttachProblem[] = [];
  for (const file of adding) {
    const others = files.filter((kept) => kept.name !== file.name);
    if (limits && file.size > limits.max_file_size) {
      problems.push({ kind: "too_large", name: file.name, max: limits.max_file_size });
      continue;
    }
    if (limits && others.length + 1 > limits.max_files) {
      if (!problems.some((problem) => problem.kind === "too_many"))
        problems.push({ kind: "too_many", max: limits.max_files });
      continue;
    }
    const total = others.reduce((sum, kept) => sum + kept.size, 0) + file.size;
    if (limits && total > limits.max_total_size) {
      problems.push({ kind: "total_too_large", max: limits.max_total_size });
      continue;
    }
    files.splice(0, files.length, ...others, file);
  }
  return { files, problems };
}

/** `1.5 MB`, `320 KB`, `12 bytes` (powers of 1024, as the limits are configured). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/**
 * Pasted screenshots all arrive as `image.png`: each gets its own name, so a second paste does
 * not replace the first.
 */
export function namePastedFile(file: File, taken: readonly string[]): File {
  if (!/^image\.\w+$/i.test(file.name) && file.name !== "") return file;
  const extension = file.name.split(".").at(-1) || (file.type.split("/").at(1) ?? "bin");
  let index = 1;
  let name = `pasted-image-${index}.${extension}`;
  while (taken.includes(name)) name = `pasted-image-${++index}.${extension}`;
  return new File([file], name, { type: file.type, lastModified: file.lastModified });
}
