import type { ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { uploadsMessages } from "../i18n/messages/uploads.js";
import { formatBytes } from "./attach-files.js";
import "./uploads.css";

/** Bytes sent of one file while its message is being sent. */
export interface FileProgress {
  loaded: number;
  total: number;
}

interface Props {
  files: readonly File[];
  /** Set while uploading: one entry per file, in order. */
  progress: readonly FileProgress[] | null;
  onRemove: ((file: File) => void) | null;
}

/** The files going with the next message: name, size, and a progress bar while they upload. */
export function AttachmentChips({ files, progress, onRemove }: Props): ReactNode {
  const t = useT(uploadsMessages);
  if (files.length === 0) return null;
  return (
    <ul className="file-chips" aria-label={t("attached")}>
      {files.map((file, index) => {
        const sent = progress?.[index];
        const percent = sent ? Math.round((100 * sent.loaded) / Math.max(1, sent.total)) : null;
        return (
          <li key={file.name} className="chip attachment-chip">
            <span className="chip-name">{file.name}</span>
            <span className="chip-size">{formatBytes(file.size)}</span>
            {percent !== null && (
              <progress
                className="upload-progress"
                max={100}
                value={percent}
                aria-label={
                  percent >= 100
                    ? t("uploaded", { name: file.name })
                    : t("progress", { name: file.name })
                }
              />
            )}
            {onRemove && (
              <button
                type="button"
                className="icon small"
                aria-label={t("remove", { name: file.name })}
                onClick={() => onRemove(file)}
              >
                ×
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Shown over the page while files are dragged onto it. */
export function DropOverlay(): ReactNode {
  const t = useT(uploadsMessages);
  return (
    <div className="drop-overlay" aria-hidden="true">
      <p>{t("dropHere")}</p>
    </div>
  );
}
