import { extname } from "node:path";
import { VIRTUAL_USER_DATA } from "../../core/paths.js";

export const VIRTUAL_UPLOADS = `${VIRTUAL_USER_DATA}/uploads`;

/** One uploaded file as the API shows it (the reference's `UploadedFileInfo`, no host paths). */
export interface ApiUploadedFile {
  filename: string;
  size: number;
  /** The virtual path, as the agent sees the file (Fawn never shows host paths). */
  path: string;
  virtual_path: string;
  artifact_url: string;
  extension: string;
  modified?: number;
  /** The name the client sent, when a duplicate in one request was renamed. */
  original_filename?: string;
}

export function toApiUploadedFile(
  threadId: string,
  file: { filename: string; size: number; modified?: number; originalFilename?: string | null },
): ApiUploadedFile {
  const virtualPath = `${VIRTUAL_UPLOADS}/${file.filename}`;
  return {
    filename: file.filename,
    size: file.size,
    path: virtualPath,
    virtual_path: virtualPath,
    artifact_url: `/api/threads/${threadId}/artifacts${VIRTUAL_UPLOADS}/${encodeURIComponent(file.filename)}`,
    extension: extname(file.filename),
    ...(file.modified === undefined ? {} : { modified: file.modified }),
    ...(file.originalFilename ? { original_filename: file.originalFilename } : {}),
  };
}
