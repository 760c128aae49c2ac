import { type FormEvent, type ReactNode, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { teamsMessages } from "../i18n/messages/teams.js";
import type { NewMember } from "./team-types.js";
import { createTeam, errorText, newRequestId } from "./teams-api.js";

const MIN_MEMBERS = 2;
const MAX_MEMBERS = 8;
const DEFAULT_AGENT = "lead_agent";

const blankMember = (): NewMember => ({ name: "", agent: DEFAULT_AGENT });

/** Name, goal and 2–8 members (name + agent); opens the new team once created. */
export function CreateTeamForm({ onCreated }: { onCreated: (teamId: string) => void }): ReactNode {
  const t = useT(teamsMessages);
  const [name, setName] = useState("");
  const [goal, setGoal] = useState("");
  const [members, setMembers] = useState<NewMember[]>([blankMember(), blankMember()]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One id per form: a retried submit (lost answer, double click) yields the same team.
  const [requestId] = useState(newRequestId);

  const complete =
    name.trim() !== "" &&
    goal.trim() !== "" &&
    members.every((member) => member.name.trim() !== "" && member.agent.trim() !== "");

  const update = (index: number, change: Partial<NewMember>): void =>
    setMembers(members.map((member, i) => (i === index ? { ...member, ...change } : member)));

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!complete || busy) return;
    setBusy(true);
    setError(null);
    try {
      const team = await createTeam({
        request_id: requestId,
        name: name.trim(),
        goal: goal.trim(),
        members: members.map((member) => ({
          name: member.name.trim(),
          agent: member.agent.trim(),
        })),
      });
      onCreated(team.id);
    } catch (caught) {
      setError(errorText(caught));
      setBusy(false);
    }
  };

  return (
    <form
      className="team-card team-form"
      aria-labelledby="create-team-title"
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="create-team-title">{t("newTeam")}</h2>
      <label className="field">
        {t("name")}
        <input value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />
      </label>
      <label className="field">
        {t("goal")}
        <textarea
          rows={3}
          value={goal}
          maxLength={2000}
          onChange={(event) => setGoal(event.target.value)}
        />
      </label>
      <fieldset className="members-editor">
        <legend>{t("members")}</legend>
        {members.map((member, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional and have no id yet
          <div key={index} className="member-row">
            <label className="field">
              {t("memberName", { n: index + 1 })}
              <input
                value={member.name}
                maxLength={80}
                onChange={(event) => update(index, { name: event.target.value })}
              />
            </label>
            <label className="field">
              {t("memberAgent", { n: index + 1 })}
              <input
                value={member.agent}
                maxLength={128}
                onChange={(event) => update(index, { agent: event.target.value })}
              />
            </label>
            <button
              type="button"
              className="icon small"
              aria-label={t("removeMember", { n: index + 1 })}
              disabled={members.length <= MIN_MEMBERS}
              onClick={() => setMembers(members.filter((_, i) => i !== index))}
            >
              ×
            </button>
          </div>
        ))}
        <button
          type="button"
          className="small"
          disabled={members.length >= MAX_MEMBERS}
          onClick={() => setMembers([...members, blankMember()])}
        >
          {t("addMember")}
        </button>
      </fieldset>
      {error && (
        <div className="run-error" role="alert">
          <strong>{t("createFailed")}</strong> {error}
        </div>
      )}
      <div className="form-bar">
        <span className="muted small">
          {t("memberRange", { min: MIN_MEMBERS, max: MAX_MEMBERS })}
        </span>
        <span className="spacer" />
        <button type="submit" className="primary" disabled={!complete || busy}>
          {busy ? t("creating") : t("createTeam")}
        </button>
      </div>
    </form>
  );
}
