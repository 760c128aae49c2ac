import { type ReactNode, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { commonMessages } from "../i18n/messages/common.js";
import { teamsMessages } from "../i18n/messages/teams.js";
import { JobList } from "./job-list.js";
import { MemberList } from "./member-list.js";
import { TaskComposer } from "./task-composer.js";
import { TeamArtifacts } from "./team-artifacts.js";
import { deleteTeam, errorText } from "./teams-api.js";
import { useTeam } from "./use-team.js";

interface Props {
  teamId: string;
  onBack: () => void;
  onOpenThread: (threadId: string) => void;
}

/** One team, kept live by polling: members, the task composer, jobs and artifacts. */
export function TeamView({ teamId, onBack, onOpenThread }: Props): ReactNode {
  const t = useT(teamsMessages);
  const common = useT(commonMessages);
  const { team, error, refresh } = useTeam(teamId);
  const [actionError, setActionError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  /** Runs a team action; its failure shows in the alert, and the view re-reads either way. */
  const act = async (run: () => Promise<unknown>): Promise<boolean> => {
    setActionError(null);
    try {
      await run();
      return true;
    } catch (caught) {
      setActionError(errorText(caught));
      return false;
    } finally {
      refresh();
    }
  };

  const remove = async (): Promise<void> => {
    setConfirming(false);
    if (await act(() => deleteTeam(teamId))) onBack();
  };

  const artifacts = team?.artifacts ?? [];
  return (
    <section className="teams-page" aria-label={t("team")}>
      <header className="chat-header">
        <button type="button" className="small" onClick={onBack}>
          {t("backToTeams")}
        </button>
        <h1 className="chat-title">{team?.name ?? t("team")}</h1>
        {team && !team.ready && <span className="badge">{t("settingUp")}</span>}
        <span className="spacer" />
        {team &&
          (confirming ? (
            <button type="button" className="danger small" onClick={() => void remove()}>
              {t("deleteTeamConfirm")}
            </button>
          ) : (
            <button type="button" className="small" onClick={() => setConfirming(true)}>
              {common("delete")}
            </button>
          ))}
      </header>
      <div className="teams-body">
        {error && (
          <div className="run-error" role="alert">
            <strong>{team ? t("lostTouch") : t("teamLoadFailed")}</strong> {error}
          </div>
        )}
        {actionError && (
          <div className="run-error" role="alert">
            <strong>{t("refused")}</strong> {actionError}
          </div>
        )}
        {!team && !error && <p className="muted">{t("loadingTeam")}</p>}
        {team && (
          <div className="team-layout">
            <div className="team-main">
              {team.goal && <p className="team-goal">{team.goal}</p>}
              <TaskComposer team={team} act={act} />
              <JobList team={team} act={act} />
            </div>
            <div className="team-side">
              <MemberList members={team.members} onOpenThread={onOpenThread} />
              <TeamArtifacts teamId={team.id} artifacts={artifacts} members={team.members} />
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
