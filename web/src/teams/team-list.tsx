import { type ReactNode, useEffect, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { commonMessages } from "../i18n/messages/common.js";
import { teamsMessages } from "../i18n/messages/teams.js";
import type { TeamSummary } from "./team-types.js";
import { errorText, listTeams } from "./teams-api.js";

type Load =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "ready"; teams: TeamSummary[] };

/** The caller's teams, newest first, each opening its team view. */
export function TeamList({ onOpen }: { onOpen: (teamId: string) => void }): ReactNode {
  const t = useT(teamsMessages);
  const common = useT(commonMessages);
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    void attempt;
    let live = true;
    listTeams()
      .then((teams) => live && setLoad({ state: "ready", teams }))
      .catch((caught: unknown) => live && setLoad({ state: "error", message: errorText(caught) }));
    return () => {
      live = false;
    };
  }, [attempt]);

  return (
    <section className="team-card" aria-labelledby="team-list-title">
      <h2 id="team-list-title">{t("yourTeams")}</h2>
      {load.state === "loading" && <p className="muted">{t("loadingTeams")}</p>}
      {load.state === "error" && (
        <div className="run-error" role="alert">
          <strong>{t("loadFailed")}</strong> {load.message}{" "}
          <button type="button" className="small" onClick={() => setAttempt(attempt + 1)}>
            {common("retry")}
          </button>
        </div>
      )}
      {load.state === "ready" && load.teams.length === 0 && <p className="muted">{t("noTeams")}</p>}
      {load.state === "ready" && load.teams.length > 0 && (
        <ul className="team-rows">
          {load.teams.map((team) => (
            <li key={team.id}>
              <button
                type="button"
                className="team-row"
                data-team-id={team.id}
                onClick={() => onOpen(team.id)}
              >
                <span className="team-row-name">{team.name}</span>
                <span className="muted small">
                  {team.members.map((member) => member.name).join(", ")}
                </span>
                {!team.ready && <span className="badge">{t("settingUp")}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
