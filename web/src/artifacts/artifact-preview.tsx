import { type ReactNode, useCallback, useEffect, useState } from "react";
import { ApiError } from "../api/api-error.js";
import { errorText } from "../api/error-text.js";
import { apiFetch, artifactUrl } from "../api/http.js";
import { MarkdownView } from "../markdown/markdown-view.js";
import { HtmlPreview } from "./html-preview.js";
import { fileName, previewKind } from "./preview-kind.js";

/** Largest text preview loaded (the rest is a download away). */
const PREVIEW_BYTES = 1024 * 1024;
/** The server saves text files up to 2 MiB under outputs. */
const EDITABLE_PREFIX = "/mnt/user-data/outputs/";

interface Loaded {
  text: string;
  /** The file's sha256 (the `ETag` of the read), or null when the server sent none. */
  sha256: string | null;
  truncated: boolean;
}

/**
 * One artifact: rendered (Markdown, HTML in a sandboxed frame, images) or as text, with an
 * editor for text files under outputs. A save names the version it was opened from
 * (`expected_sha256`): a file changed meanwhile (by a run or another tab) is refused, never
 * overwritten, and the user's text stays in the editor.
 */
export function ArtifactPreview({
  threadId,
  path,
  streaming,
}: {
  threadId: string;
  path: string;
  streaming: boolean;
}): ReactNode {
  const kind = previewKind(path);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [saveState, setSaveState] = useState<{ saving: boolean; problem: string | null }>({
    saving: false,
    problem: null,
  });
  const [version, setVersion] = useState(0);

  // Leaves the editor: the user chose the file's current version over their text.
  const reload = useCallback(() => {
    setDraft(null);
    setSaveState({ saving: false, problem: null });
    setVersion((current) => current + 1);
  }, []);

  useEffect(() => {
    if (kind === "none" || kind === "image") return;
    // Read again when a run ends (it may have rewritten the file) and on demand.
    void streaming;
    void version;
    const abort = new AbortController();
    // The shown version stays until the new read arrives (no flash, no reloaded frame).
    setError(null);
    apiFetch(artifactUrl(threadId, path).slice("/api".length), { signal: abort.signal })
      .then(async (response) => {
        const body = await response.text();
        const etag = response.headers.get("ETag");
        const next: Loaded = {
          text: body.length > PREVIEW_BYTES ? `${body.slice(0, PREVIEW_BYTES)}\n…` : body,
          sha256: etag ? etag.replaceAll('"', "") : null,
          truncated: body.length > PREVIEW_BYTES,
        };
        setLoaded((shown) =>
          shown && shown.text === next.text && shown.sha256 === next.sha256 ? shown : next,
        );
      })
      .catch((caught: unknown) => {
        if (!abort.signal.aborted) setError(errorText(caught).text);
      });
    return () => abort.abort();
  }, [threadId, path, kind, streaming, version]);

  const editable =
    path.startsWith(EDITABLE_PREFIX) &&
    kind !== "none" &&
    kind !== "image" &&
    loaded !== null &&
    loaded.sha256 !== null &&
    !loaded.truncated;

  const save = async (): Promise<void> => {
    if (draft === null || !loaded?.sha256) return;
    setSaveState({ saving: true, problem: null });
    try {
      const response = await apiFetch(artifactUrl(threadId, path).slice("/api".length), {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content: draft, expected_sha256: loaded.sha256 }),
      });
      const saved = (await response.json()) as { sha256: string };
      setLoaded({ text: draft, sha256: saved.sha256, truncated: false });
      setDraft(null);
      setSaveState({ saving: false, problem: null });
    } catch (caught) {
      setSaveState({ saving: false, problem: saveProblem(caught) });
    }
  };

  return (
    <div className="artifact-preview" data-testid="artifact-preview">
      <div className="preview-title">
        <span>{fileName(path)}</span>
        {editable && draft === null && (
          <button
            type="button"
            className="small"
            disabled={streaming}
            title={streaming ? "The run may still change this file" : undefined}
            onClick={() => setDraft(loaded.text)}
          >
            Edit
          </button>
        )}
      </div>
      {kind === "none" && <p className="muted">No preview for this file type; download it.</p>}
      {kind === "image" && <img src={artifactUrl(threadId, path)} alt={fileName(path)} />}
      {error && <p className="error">{error}</p>}
      {draft !== null ? (
        <div className="artifact-editor">
          <textarea
            aria-label={`Edit ${fileName(path)}`}
            value={draft}
            spellCheck={false}
            onChange={(event) => setDraft(event.target.value)}
          />
          {saveState.problem && (
            <div className="run-error" role="alert">
              {saveState.problem}{" "}
              <button type="button" className="link-button" onClick={reload}>
                Discard my text and load the current version
              </button>
            </div>
          )}
          <div className="editor-bar">
            <button
              type="button"
              className="primary"
              disabled={saveState.saving}
              onClick={() => void save()}
            >
              {saveState.saving ? "Saving…" : "Save"}
            </button>
            <button
              type="button"
              onClick={() => {
                setDraft(null);
                setSaveState({ saving: false, problem: null });
              }}
            >
              Cancel
            </button>
          </div>
        </div>
      ) : (
        loaded !== null && <RenderedArtifact kind={kind} path={path} text={loaded.text} />
      )}
    </div>
  );
}

function RenderedArtifact({
  kind,
  path,
  text,
}: {
  kind: ReturnType<typeof previewKind>;
  path: string;
  text: string;
}): ReactNode {
  if (kind === "markdown") return <MarkdownView text={text} />;
  if (kind === "html") return <HtmlPreview path={path} html={text} />;
  if (kind === "text") {
    return (
      <pre className="code-block">
        <code>{text}</code>
      </pre>
    );
  }
  return null;
}

function saveProblem(caught: unknown): string {
  if (caught instanceof ApiError && caught.status === 412) {
    return "Not saved: the file changed since you opened it (a run or another tab wrote it). Your text is still here.";
  }
  if (caught instanceof ApiError && caught.status === 409) {
    return "Not saved: a run is working in this chat. Save again when it has finished.";
  }
  return `Not saved: ${errorText(caught).text}`;
}
