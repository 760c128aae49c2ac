import { type FormEvent, type KeyboardEvent, type ReactNode, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { teamsMessages } from "../i18n/messages/teams.js";
import type { ArtifactRef, Team } from "./team-types.js";
import { newRequestId, sendTask } from "./teams-api.js";

interface Props {
  team: Team;
  act: (run: () => Promise<unknown>) => Promise<boolean>;
}

const refKey = (ref: ArtifactRef): string => `${ref.artifact_id}@${ref.version}`;

/** Sends a task to one member, optionally with ready artifacts attached. Enter sends. */
export function TaskComposer({ team, act }: Props): ReactNode {
  const t = useT(teamsMessages);
  const [memberId, setMemberId] = useState(team.members[0]?.id ?? "");
  const [text, setText] = useState("");
  const [attached, setAttached] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  // Kept until the send succeeds: retrying the same task after an error is idempotent.
  const [requestId, setRequestId] = useState(newRequestId);
  const ready = (team.artifacts ?? []).filter((artifact) => artifact.status === "ready");
  const canSend = !sending && team.ready && memberId !== "" && text.trim() !== "";

  const submit = async (event?: FormEvent): Promise<void> => {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    const artifacts = ready
      .filter((artifact) => attached.includes(refKey(artifact)))
      .map(({ artifact_id, version }) => ({ artifact_id, version }));
    const sent = await act(() =>
      sendTask({
        team_id: team.id,
        member_id: memberId,
        text: text.trim(),
        request_id: requestId,
        artifacts,
      }),
    );
    setSending(false);
    if (sent) {
      setText("");
      setAttached([]);
      setRequestId(newRequestId());
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form className="composer task-composer" onSubmit={(event) => void submit(event)}>
      <textarea
        aria-label={t("task")}
        placeholder={team.ready ? t("taskPlaceholder") : t("settingUpPlaceholder")}
        rows={3}
        maxLength={4000}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setRequestId(newRequestId());
        }}
        onKeyDown={onKeyDown}
      />
      {ready.length > 0 && (
        <fieldset className="attach-list">
          <legend className="muted small">{t("attachArtifacts")}</legend>
          {ready.map((artifact) => {
            const key = refKey(artifact);
            return (
              <label key={key} className="chip">
                <input
                  type="checkbox"
                  checked={attached.includes(key)}
                  onChange={(event) =>
                    setAttached(
                      event.target.checked ? [...attached, key] : attached.filter((k) => k !== key),
                    )
                  }
                />
                {t("versionedFile", { name: artifact.name, version: artifact.version })}
              </label>
            );
          })}
        </fieldset>
      )}
      <div className="composer-bar">
        <label className="toggle">
          {t("sendTo")}
          <select value={memberId} onChange={(event) => setMemberId(event.target.value)}>
            {team.members.map((member) => (
              <option key={member.id} value={member.id}>
                {member.name}
              </option>
            ))}
          </select>
        </label>
        <span className="spacer" />
        <button type="submit" className="primary" disabled={!canSend}>
          {sending ? t("sending") : t("sendTask")}
        </button>
      </div>
    </form>
  );
}
