import type { ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { teamsMessages } from "../i18n/messages/teams.js";
import { CreateTeamForm } from "./create-team-form.js";
import { TeamList } from "./team-list.js";
import { TeamView } from "./team-view.js";
import "./teams.css";

interface Props {
  teamId: string | null;
  /** `null`: back to the list. */
  onOpenTeam: (teamId: string | null) => void;
  onOpenThread: (threadId: string) => void;
}

/** `/teams` (the caller's teams and the create form) and `/teams/<id>` (one team). */
export function TeamsPage({ teamId, onOpenTeam, onOpenThread }: Props): ReactNode {
  const t = useT(teamsMessages);
  if (teamId) {
    return (
      <TeamView
        key={teamId}
        teamId={teamId}
        onBack={() => onOpenTeam(null)}
        onOpenThread={onOpenThread}
      />
    );
  }
  return (
    <section className="teams-page" aria-label={t("title")}>
      <header className="chat-header">
        <h1 className="chat-title">{t("title")}</h1>
      </header>
      <div className="teams-body teams-home">
        <TeamList onOpen={onOpenTeam} />
        <CreateTeamForm onCreated={onOpenTeam} />
      </div>
    </section>
  );
}
