import { type ReactNode, useEffect, useState } from "react";
import { apiFetch, artifactUrl } from "../api/http.js";
import { MarkdownView } from "../markdown/markdown-view.js";
import { fileName, previewKind } from "./preview-kind.js";

interface Props {
  threadId: string;
  artifacts: string[];
  streaming: boolean;
  onClose: () => void;
}

/** Largest text preview loaded (the rest is a download away). */
const PREVIEW_BYTES = 1024 * 1024;

/** The thread's delivered files (`values.artifacts`): download links and a text/Markdown preview. */
export function ArtifactsPanel({ threadId, artifacts, streaming, onClose }: Props): ReactNode {
  const [selected, setSelected] = useState<string | null>(null);
  const current = selected && artifacts.includes(selected) ? selected : null;

  return (
    <aside className="artifacts" aria-label="Artifacts">
      <div className="artifacts-head">
        <h2>Artifacts</h2>
        <button
          type="button"
          className="icon small"
          aria-label="Close the artifacts panel"
          onClick={onClose}
        >
          ×
        </button>
      </div>
      <ul className="artifact-list">
        {artifacts.map((path) => (
          <li key={path} className={path === current ? "artifact active" : "artifact"}>
            <button
              type="button"
              className="artifact-open"
              title={path}
              onClick={() => setSelected(path === current ? null : path)}
            >
              {fileName(path)}
            </button>
            <a
              className="download"
              href={artifactUrl(threadId, path, true)}
              download={fileName(path)}
            >
              Download
            </a>
          </li>
        ))}
      </ul>
      {current && (
        <ArtifactPreview threadId={threadId} path={current} refreshKey={streaming ? 1 : 0} />
      )}
    </aside>
  );
}

function ArtifactPreview({
  threadId,
  path,
  refreshKey,
}: {
  threadId: string;
  path: string;
  refreshKey: number;
}): ReactNode {
  const kind = previewKind(path);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (kind === "none" || kind === "image") return;
    void refreshKey;
    const abort = new AbortController();
    setText(null);
    setError(null);
    apiFetch(artifactUrl(threadId, path).slice("/api".length), { signal: abort.signal })
      .then((response) => response.text())
      .then((body) =>
        setText(body.length > PREVIEW_BYTES ? `${body.slice(0, PREVIEW_BYTES)}\n…` : body),
      )
      .catch((caught: unknown) => {
        if (!abort.signal.aborted)
          setError(caught instanceof Error ? caught.message : String(caught));
      });
    return () => abort.abort();
  }, [threadId, path, kind, refreshKey]);

  return (
    <div className="artifact-preview" data-testid="artifact-preview">
      <div className="preview-title">{fileName(path)}</div>
      {kind === "none" && <p className="muted">No preview for this file type; download it.</p>}
      {kind === "image" && <img src={artifactUrl(threadId, path)} alt={fileName(path)} />}
      {error && <p className="error">{error}</p>}
      {text !== null && kind === "markdown" && <MarkdownView text={text} />}
      {text !== null && kind === "html" && <HtmlPreview path={path} html={text} />}
      {text !== null && kind === "text" && (
        <pre className="code-block">
          <code>{text}</code>
        </pre>
      )}
    </div>
  );
}

/**
 * Rendered in an iframe with `sandbox="allow-scripts"` and no `allow-same-origin`: the page's
 * scripts run in an opaque origin, so they cannot read the workspace, its cookies or its API,
 * navigate the workspace or open windows.
 */
function HtmlPreview({ path, html }: { path: string; html: string }): ReactNode {
  const [source, setSource] = useState(false);
  return (
    <>
      <div className="preview-tabs">
        <button type="button" aria-pressed={!source} onClick={() => setSource(false)}>
          Preview
        </button>
        <button type="button" aria-pressed={source} onClick={() => setSource(true)}>
          Source
        </button>
      </div>
      {source ? (
        <pre className="code-block">
          <code>{html}</code>
        </pre>
      ) : (
        <iframe
          className="html-preview"
          title={`Preview of ${fileName(path)}`}
          sandbox="allow-scripts"
          srcDoc={html}
        />
      )}
    </>
  );
}
