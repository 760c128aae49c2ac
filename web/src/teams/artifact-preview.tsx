import { type ReactNode, useEffect, useState } from "react";
import { fileName, previewKind } from "../artifacts/preview-kind.js";
import { useT } from "../i18n/locale-context.js";
import { commonMessages } from "../i18n/messages/common.js";
import { teamsMessages } from "../i18n/messages/teams.js";
import { MarkdownView } from "../markdown/markdown-view.js";
import type { TeamArtifact } from "./team-types.js";
import { artifactBytes, errorText } from "./teams-api.js";

/** Largest text preview shown (the rest is a download away). */
const PREVIEW_CHARS = 1024 * 1024;

type Shown =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "text"; text: string }
  | { state: "image"; url: string };

/** A ready artifact version's content: Markdown, text or an image; other types download only. */
export function ArtifactPreview({
  teamId,
  artifact,
}: {
  teamId: string;
  artifact: TeamArtifact;
}): ReactNode {
  const t = useT(teamsMessages);
  const common = useT(commonMessages);
  const kind = previewKind(artifact.name);
  const [shown, setShown] = useState<Shown>({ state: "loading" });
  // By id and version: each poll brings new objects for the same unchanging bytes.
  const { artifact_id: artifactId, version } = artifact;

  useEffect(() => {
    if (kind === "none") return;
    const abort = new AbortController();
    let url: string | null = null;
    artifactBytes(teamId, { artifact_id: artifactId, version }, abort.signal)
      .then(async (blob) => {
        if (kind === "image") {
          url = URL.createObjectURL(blob);
          setShown({ state: "image", url });
          return;
        }
        const text = await blob.text();
        setShown({
          state: "text",
          text: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}\n…` : text,
        });
      })
      .catch((caught: unknown) => {
        if (!abort.signal.aborted) setShown({ state: "error", message: errorText(caught) });
      });
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [teamId, artifactId, version, kind]);

  return (
    <div className="artifact-preview" data-testid="team-artifact-preview">
      <div className="preview-title">
        {artifact.name}{" "}
        <span className="muted small">{t("version", { version: artifact.version })}</span>
      </div>
      {kind === "none" && <p className="muted">{t("noPreview")}</p>}
      {kind !== "none" && shown.state === "loading" && <p className="muted">{common("loading")}</p>}
      {shown.state === "error" && (
        <p className="error" role="alert">
          {shown.message}
        </p>
      )}
      {shown.state === "image" && <img src={shown.url} alt={artifact.name} />}
      {shown.state === "text" && kind === "markdown" && <MarkdownView text={shown.text} />}
      {shown.state === "text" && kind === "text" && (
        <pre className="code-block">
          <code>{shown.text}</code>
        </pre>
      )}
    </div>
  );
}

/** Saves the version's bytes under its file name (fetched first, so errors show in the page). */
export async function downloadArtifact(teamId: string, artifact: TeamArtifact): Promise<void> {
  const blob = await artifactBytes(teamId, artifact);
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName(artifact.name);
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has handed the URL to the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
