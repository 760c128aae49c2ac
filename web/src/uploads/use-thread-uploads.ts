import { useEffect, useState } from "react";
import { apiJson } from "../api/http.js";
import type { UploadedFile } from "../api/types.js";

/**
 * The files uploaded to a thread (`GET /threads/{id}/uploads/list`), read again whenever
 * `version` changes (a run started or ended: a message may have brought new files). None for a
 * chat whose thread does not exist yet.
 */
export function useThreadUploads(threadId: string | null, version: unknown): UploadedFile[] {
  const [files, setFiles] = useState<UploadedFile[]>([]);
  useEffect(() => {
    void version;
    if (threadId === null) return;
    const abort = new AbortController();
    apiJson<{ files: UploadedFile[] }>(`/threads/${encodeURIComponent(threadId)}/uploads/list`, {
      signal: abort.signal,
    })
      .then((answer) => setFiles(answer.files))
      // Not listed: the panel shows the run's files alone.
      .catch(() => undefined);
    return () => abort.abort();
  }, [threadId, version]);
  return files;
}
