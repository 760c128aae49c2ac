import type { ReactNode } from "react";
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
    <section className="teams-page" aria-label="Teams">
      <header className="chat-header">
        <h1 className="chat-title">Teams</h1>
      </header>
      <div className="teams-body teams-home">
        <TeamList onOpen={onOpenTeam} />
        <CreateTeamForm onCreated={onOpenTeam} />
      </div>
    </section>
  );
}
