import { type ReactNode, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { type TeamsMessageKey, teamsMessages } from "../i18n/messages/teams.js";
import { ArtifactPreview, downloadArtifact } from "./artifact-preview.js";
import type { TeamArtifact, TeamMember } from "./team-types.js";
import { errorText } from "./teams-api.js";

interface Props {
  teamId: string;
  artifacts: TeamArtifact[];
  members: TeamMember[];
}

const keyOf = (artifact: TeamArtifact): string => `${artifact.artifact_id}@${artifact.version}`;

const ARTIFACT_STATUS: Record<TeamArtifact["status"], TeamsMessageKey> = {
  pending: "artifactPending",
  ready: "artifactReady",
  failed: "artifactFailed",
};

/** Files the members registered, newest version first, with status; ready ones open or download. */
export function TeamArtifacts({ teamId, artifacts, members }: Props): ReactNode {
  const t = useT(teamsMessages);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const names = new Map(members.map((member) => [member.id, member.name]));
  const sorted = [...artifacts].sort(
    (a, b) => a.name.localeCompare(b.name) || b.version - a.version,
  );
  const current = sorted.find(
    (artifact) => keyOf(artifact) === open && artifact.status === "ready",
  );

  const download = (artifact: TeamArtifact): void => {
    setError(null);
    downloadArtifact(teamId, artifact).catch((caught: unknown) => setError(errorText(caught)));
  };

  return (
    <section className="team-card" aria-labelledby="team-artifacts-title">
      <h2 id="team-artifacts-title">{t("artifacts")}</h2>
      {sorted.length === 0 && <p className="muted small">{t("noArtifacts")}</p>}
      <ul className="artifact-list">
        {sorted.map((artifact) => {
          const key = keyOf(artifact);
          const ready = artifact.status === "ready";
          return (
            <li
              key={key}
              className={
                key === open && ready ? "artifact team-artifact active" : "artifact team-artifact"
              }
              data-artifact={key}
            >
              <div className="team-artifact-head">
                <button
                  type="button"
                  className="artifact-open"
                  title={artifact.path}
                  disabled={!ready}
                  aria-expanded={ready ? key === open : undefined}
                  onClick={() => setOpen(key === open ? null : key)}
                >
                  {artifact.name}
                </button>
                <span className="badge">{t("version", { version: artifact.version })}</span>
                <span className={`badge artifact-${artifact.status}`}>
                  {t(ARTIFACT_STATUS[artifact.status])}
                </span>
              </div>
              <div className="team-artifact-meta muted small">
                <span>
                  {t("fromMember", {
                    name: names.get(artifact.source.member_id) ?? t("aMember"),
                  })}
                </span>
                {artifact.size !== undefined && <span>{formatSize(artifact.size)}</span>}
                {ready && (
                  <button
                    type="button"
                    className="link-button small"
                    onClick={() => download(artifact)}
                  >
                    {t("download")}
                  </button>
                )}
              </div>
              {artifact.status === "failed" && artifact.error && (
                <p className="error small">{artifact.error}</p>
              )}
            </li>
          );
        })}
      </ul>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {current && <ArtifactPreview key={keyOf(current)} teamId={teamId} artifact={current} />}
    </section>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
