import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from "react";
import { artifactUrl } from "../api/http.js";
import type { UploadedFile } from "../api/types.js";
import type { ChatMessage } from "../chat/message-groups.js";
import { useT } from "../i18n/locale-context.js";
import { artifactsMessages } from "../i18n/messages/artifacts.js";
import { ArtifactPreview } from "./artifact-preview.js";
import { LiveWritePreview } from "./live-write-preview.js";
import { type FileWrite, fileWrites, isServedPath } from "./live-writes.js";
import { ResizeHandle, usePanelWidth } from "./panel-resize.js";
import { fileName } from "./preview-kind.js";
import "./artifacts.css";

interface Props {
  threadId: string;
  artifacts: string[];
  /** The files the user uploaded to the thread. */
  uploads: readonly UploadedFile[];
  streaming: boolean;
  /** The conversation as shown: its `write_file` calls are previewed while they stream. */
  messages: readonly ChatMessage[];
  onClose: () => void;
}

type Selection = { kind: "file"; path: string } | { kind: "write"; toolCallId: string };

/**
 * The thread's files beside the chat: what the run delivered (`values.artifacts`), what the user
 * uploaded, and a file while the run is writing it (shown as its text arrives, opened by itself).
 * Resizable; renders nothing while there is nothing to show.
 */
export function ArtifactsPanel({
  threadId,
  artifacts,
  uploads,
  streaming,
  messages,
  onClose,
}: Props): ReactNode {
  const t = useT(artifactsMessages);
  const [selected, setSelected] = useState<Selection | null>(null);
  const [width, setWidth] = usePanelWidth();
  const writes = fileWrites(messages);
  const writing = streaming ? writes.filter((write) => !write.done) : [];
  const latestWriting = writing.at(-1)?.toolCallId ?? null;

  // A write that starts streaming opens in the panel (from an effect, not during render).
  const opened = useRef<string | null>(null);
  useEffect(() => {
    if (latestWriting && opened.current !== latestWriting) {
      opened.current = latestWriting;
      setSelected({ kind: "write", toolCallId: latestWriting });
    }
  }, [latestWriting]);

  const selectedWrite =
    selected?.kind === "write"
      ? writes.find((write) => write.toolCallId === selected.toolCallId)
      : undefined;
  const current = currentView(
    selected,
    selectedWrite,
    artifacts,
    uploads.map((u) => u.virtual_path),
  );
  const listedWrites = writing.filter((write) => !artifacts.includes(write.path));

  if (artifacts.length === 0 && uploads.length === 0 && listedWrites.length === 0 && !current)
    return null;

  const style = { "--artifacts-width": `${width}px` } as CSSProperties;
  const close = (): void => setSelected(null);
  // A click opens a file (one already open stays open: the preview's × closes it).
  const open = (path: string): void => setSelected({ kind: "file", path });

  return (
    <>
      <ResizeHandle width={width} onResize={setWidth} label={t("resize")} />
      <aside className="artifacts resizable" aria-label={t("panel")} style={style}>
        <div className="artifacts-head">
          <h2>{t("heading")}</h2>
          <button
            type="button"
            className="icon small"
            aria-label={t("closePanel")}
            onClick={onClose}
          >
            ×
          </button>
        </div>
        {(artifacts.length > 0 || listedWrites.length > 0) && (
          <ul className="artifact-list">
            {listedWrites.map((write) => (
              <li
                key={write.toolCallId}
                className={current?.path === write.path ? "artifact active" : "artifact"}
              >
                <button
                  type="button"
                  className="artifact-open"
                  title={write.path}
                  onClick={() => setSelected({ kind: "write", toolCallId: write.toolCallId })}
                >
                  {fileName(write.path)}
                </button>
                <span className="badge live">{t("writing")}</span>
              </li>
            ))}
            {artifacts.map((path) => (
              <FileRow
                key={path}
                threadId={threadId}
                path={path}
                active={current?.path === path}
                onOpen={() => open(path)}
                downloadLabel={t("download")}
              />
            ))}
          </ul>
        )}
        {uploads.length > 0 && (
          <section className="artifact-uploads" aria-label={t("uploads")}>
            <h3>{t("uploads")}</h3>
            <ul className="artifact-list">
              {uploads.map((upload) => (
                <FileRow
                  key={upload.virtual_path}
                  threadId={threadId}
                  path={upload.virtual_path}
                  active={current?.path === upload.virtual_path}
                  onOpen={() => open(upload.virtual_path)}
                  downloadLabel={t("download")}
                />
              ))}
            </ul>
          </section>
        )}
        {current?.live ? (
          <LiveWritePreview
            key={current.write.toolCallId}
            threadId={threadId}
            write={current.write}
            onClose={close}
          />
        ) : (
          current && (
            <ArtifactPreview
              key={current.path}
              threadId={threadId}
              path={current.path}
              streaming={streaming}
              onClose={close}
            />
          )
        )}
      </aside>
    </>
  );
}

type CurrentView = { path: string; live: false } | { path: string; live: true; write: FileWrite };

/**
 * What the preview shows: a write still streaming (or one of a file that is not served) as its
 * text; a finished write of a served file, and any listed file, from the server.
 */
function currentView(
  selected: Selection | null,
  write: FileWrite | undefined,
  artifacts: readonly string[],
  uploads: readonly string[],
): CurrentView | null {
  if (selected === null) return null;
  if (selected.kind === "file") {
    const listed = artifacts.includes(selected.path) || uploads.includes(selected.path);
    return listed ? { path: selected.path, live: false } : null;
  }
  // A failed write changed nothing: there is nothing to show.
  if (!write || write.failed) return null;
  if (write.done && isServedPath(write.path)) return { path: write.path, live: false };
  return { path: write.path, live: true, write };
}

function FileRow({
  threadId,
  path,
  active,
  onOpen,
  downloadLabel,
}: {
  threadId: string;
  path: string;
  active: boolean;
  onOpen: () => void;
  downloadLabel: string;
}): ReactNode {
  return (
    <li className={active ? "artifact active" : "artifact"}>
      <button type="button" className="artifact-open" title={path} onClick={onOpen}>
        {fileName(path)}
      </button>
      <a
        className="artifact-link"
        href={artifactUrl(threadId, path, true)}
        download={fileName(path)}
      >
        {downloadLabel}
      </a>
    </li>
  );
}
