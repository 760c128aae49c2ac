import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { describeError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { FawnPaths } from "../../core/paths.js";
import type { DocumentStore } from "../../ports/document-store.js";
import { memoryDocumentSchema } from "./memory-document.js";

export interface LegacyMemoryImport {
  documents: DocumentStore;
  paths: FawnPaths;
  userId: string;
  collection: string;
  key: string;
  logger: Logger;
}

/** Suffix a legacy file gets once its content is in the database (kept, not deleted). */
export const IMPORTED_SUFFIX = ".imported";

/**
 * Moves a memory written by an earlier Fawn (`<home>/users/<u>/memory.json`) into the document
 * store, once: the file is imported only while the user has no stored memory (the write expects
 * revision 0, so two processes importing at once store it once), then renamed `*.imported`. An
 * unreadable file is left where it is and reported.
 */
export async function importLegacyMemoryFile(options: LegacyMemoryImport): Promise<void> {
  const { documents, userId, logger } = options;
  const file = join(options.paths.userDir(userId), "memory.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if (isMissing(error)) return;
    logger.warn(
      { file, error: describeError(error) },
      "legacy memory file unreadable; not imported",
    );
    return;
  }
  let parsed: ReturnType<typeof memoryDocumentSchema.safeParse>;
  try {
    parsed = memoryDocumentSchema.safeParse(JSON.parse(text));
  } catch {
    logger.warn({ file }, "legacy memory file is not JSON; not imported");
    return;
  }
  if (!parsed.success) {
    logger.warn({ file }, "legacy memory file has an unknown shape; not imported");
    return;
  }
  const { revision: _revision, ...fields } = parsed.data;
  const stored = await documents.put(options.collection, userId, options.key, fields, 0);
  if (stored !== null) {
    logger.info({ userId, facts: fields.facts.length }, "legacy memory file imported");
  }
  // Imported now or by a peer a moment ago: either way the file has done its job.
  await rename(file, `${file}${IMPORTED_SUFFIX}`).catch((error: unknown) => {
    if (!isMissing(error)) {
      logger.warn({ file, error: describeError(error) }, "imported memory file not renamed");
    }
  });
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}
