import { type ReactNode, useEffect, useState } from "react";
import { errorText } from "../api/error-text.js";
import { artifactUrl } from "../api/http.js";
import { useT } from "../i18n/locale-context.js";
import { artifactsMessages } from "../i18n/messages/artifacts.js";
import { fileName } from "./preview-kind.js";

interface Props {
  threadId: string;
  path: string;
  /** The file's text when it is a text file that has loaded (what Copy copies). */
  text: string | null;
  /** The file is only being written: it has no URL yet. */
  live: boolean;
  onClose: () => void;
  children?: ReactNode;
}

/** Above a preview: the file's name, then Copy, Open in a new tab and Close (Download is in the list). */
export function ArtifactToolbar({
  threadId,
  path,
  text,
  live,
  onClose,
  children,
}: Props): ReactNode {
  const t = useT(artifactsMessages);
  const name = fileName(path);
  const [copy, setCopy] = useState<{ done: boolean; problem: string | null }>({
    done: false,
    problem: null,
  });
  useEffect(() => {
    if (!copy.done) return;
    const timer = window.setTimeout(() => setCopy({ done: false, problem: null }), 2000);
    return () => window.clearTimeout(timer);
  }, [copy.done]);

  const copyText = async (): Promise<void> => {
    if (text === null) return;
    try {
      await navigator.clipboard.writeText(text);
      setCopy({ done: true, problem: null });
    } catch (caught) {
      setCopy({ done: false, problem: t("copyFailed", { reason: errorText(caught).text }) });
    }
  };

  return (
    <>
      <div className="preview-title artifact-toolbar">
        <span className="preview-name" title={path}>
          {name}
        </span>
        <span className="toolbar-actions">
          {children}
          {text !== null && (
            <button type="button" className="small" onClick={() => void copyText()}>
              {copy.done ? t("copied") : t("copy")}
            </button>
          )}
          {!live && (
            <a
              className="artifact-link"
              href={artifactUrl(threadId, path)}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t("openNewTab")}
            </a>
          )}
          <button
            type="button"
            className="icon small"
            aria-label={t("closePreview")}
            onClick={onClose}
          >
            ×
          </button>
        </span>
      </div>
      <span className="visually-hidden" role="status">
        {copy.done ? t("copied") : ""}
      </span>
      {copy.problem && (
        <p className="error" role="alert">
          {copy.problem}
        </p>
      )}
    </>
  );
}
