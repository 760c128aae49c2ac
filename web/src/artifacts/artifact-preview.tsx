import { type ReactNode, useCallback, useEffect, useState } from "react";
import { ApiError } from "../api/api-error.js";
import { errorText } from "../api/error-text.js";
import { apiFetch, artifactUrl } from "../api/http.js";
import { type Translate, useT } from "../i18n/locale-context.js";
import { artifactsMessages } from "../i18n/messages/artifacts.js";
import { MarkdownView } from "../markdown/markdown-view.js";
import { ArtifactToolbar } from "./artifact-toolbar.js";
import { CodeView } from "./code-view.js";
import { HtmlPreview } from "./html-preview.js";
import {
  codeLanguage,
  fileName,
  isTextKind,
  type PreviewKind,
  previewKind,
} from "./preview-kind.js";

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
 * One artifact: rendered (Markdown, HTML in a sandboxed frame, highlighted code, images, PDF,
 * audio, video) with Copy, Open in a new tab and Download, and an editor for text files under
 * outputs. A save names the version it was opened from (`expected_sha256`): a file changed
 * meanwhile (by a run or another tab) is refused, never overwritten, and the user's text stays
 * in the editor.
 */
export function ArtifactPreview({
  threadId,
  path,
  streaming,
  onClose,
}: {
  threadId: string;
  path: string;
  streaming: boolean;
  onClose: () => void;
}): ReactNode {
  const t = useT(artifactsMessages);
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
    if (!isTextKind(kind)) return;
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
    isTextKind(kind) &&
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
      setSaveState({ saving: false, problem: saveProblem(caught, t) });
    }
  };

  const name = fileName(path);
  return (
    <div className="artifact-preview" data-testid="artifact-preview" data-kind={kind}>
      <ArtifactToolbar
        threadId={threadId}
        path={path}
        text={loaded && !loaded.truncated ? (draft ?? loaded.text) : null}
        live={false}
        onClose={onClose}
      >
        {editable && draft === null && (
          <button
            type="button"
            className="small"
            disabled={streaming}
            title={streaming ? t("editBusy") : undefined}
            onClick={() => setDraft(loaded.text)}
          >
            {t("edit")}
          </button>
        )}
      </ArtifactToolbar>
      {error && <p className="error">{error}</p>}
      {loaded?.truncated && <p className="muted">{t("truncated")}</p>}
      {draft !== null ? (
        <div className="artifact-editor">
          <textarea
            aria-label={t("editLabel", { name })}
            value={draft}
            spellCheck={false}
            onChange={(event) => setDraft(event.target.value)}
          />
          {saveState.problem && (
            <div className="run-error" role="alert">
              {saveState.problem}{" "}
              <button type="button" className="link-button" onClick={reload}>
                {t("discard")}
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
              {saveState.saving ? t("saving") : t("save")}
            </button>
            <button
              type="button"
              onClick={() => {
                setDraft(null);
                setSaveState({ saving: false, problem: null });
              }}
            >
              {t("cancel")}
            </button>
          </div>
        </div>
      ) : (
        <RenderedArtifact
          kind={kind}
          path={path}
          url={artifactUrl(threadId, path)}
          text={loaded?.text ?? null}
        />
      )}
    </div>
  );
}

function RenderedArtifact({
  kind,
  path,
  url,
  text,
}: {
  kind: PreviewKind;
  path: string;
  url: string;
  text: string | null;
}): ReactNode {
  const t = useT(artifactsMessages);
  const name = fileName(path);
  switch (kind) {
    case "markdown":
      return text === null ? null : <MarkdownView text={text} />;
    case "html":
      return text === null ? null : <HtmlPreview path={path} html={text} />;
    case "code":
      return text === null ? null : <CodeView text={text} language={codeLanguage(path)} />;
    case "text":
      return text === null ? null : <CodeView text={text} language={null} />;
    case "image":
      return <img className="artifact-image" src={url} alt={name} />;
    case "pdf":
      return (
        <object
          className="artifact-pdf"
          data={url}
          type="application/pdf"
          aria-label={t("previewOf", { name })}
        >
          <p className="muted">{t("pdfFallback")}</p>
        </object>
      );
    case "audio":
      // biome-ignore lint/a11y/useMediaCaption: a file the run made; there is no caption track to offer.
      return <audio className="artifact-media" src={url} controls aria-label={name} />;
    case "video":
      // biome-ignore lint/a11y/useMediaCaption: a file the run made; there is no caption track to offer.
      return <video className="artifact-media" src={url} controls aria-label={name} />;
    case "none":
      return <p className="muted">{t("noPreview")}</p>;
  }
}

function saveProblem(caught: unknown, t: Translate<keyof typeof artifactsMessages.en>): string {
  if (caught instanceof ApiError && caught.status === 412) return t("changed");
  if (caught instanceof ApiError && caught.status === 409) return t("busy");
  return t("notSaved", { reason: errorText(caught).text });
}
