import { type FormEvent, type ReactNode, useState } from "react";
import { useT } from "../i18n/locale-context.js";
import { commonMessages } from "../i18n/messages/common.js";
import { teamsMessages } from "../i18n/messages/teams.js";
import { MarkdownView } from "../markdown/markdown-view.js";
import { canCancel, statusLabelKey } from "./job-status.js";
import type { TeamJob } from "./team-types.js";
import { cancelJob, newRequestId, resumeJob } from "./teams-api.js";

interface Props {
  teamId: string;
  job: TeamJob;
  memberName: string;
  artifactName: (artifactId: string) => string;
  act: (run: () => Promise<unknown>) => Promise<boolean>;
}

/** One job: who, the task, its status, its answer or error, a clarification to answer, Cancel. */
export function JobCard({ teamId, job, memberName, artifactName, act }: Props): ReactNode {
  const t = useT(teamsMessages);
  const common = useT(commonMessages);
  const receipt = job.kind === "receipt";
  return (
    <li className={`job status-${job.status}`} data-job-id={job.id} data-status={job.status}>
      <div className="job-head">
        <span className="job-member">
          {receipt ? t("deliveryTo", { name: memberName }) : memberName}
        </span>
        <span className={`badge status-${job.status}`}>{t(statusLabelKey(job.status))}</span>
        <span className="spacer" />
        {canCancel(job.status) && (
          <button
            type="button"
            className="small"
            aria-label={t("cancelJobFor", { name: memberName })}
            onClick={() => void act(() => cancelJob(teamId, job.id))}
          >
            {common("cancel")}
          </button>
        )}
      </div>
      {!receipt && <div className="plain job-text">{job.text}</div>}
      {(job.artifacts ?? []).length > 0 && (
        <ul className="file-chips">
          {(job.artifacts ?? []).map((ref) => (
            <li key={`${ref.artifact_id}@${ref.version}`} className="chip">
              {t("versionedFile", { name: artifactName(ref.artifact_id), version: ref.version })}
            </li>
          ))}
        </ul>
      )}
      {job.status === "waiting_input" && <AnswerBox teamId={teamId} job={job} act={act} />}
      {job.result && (
        <div className="job-result">
          <MarkdownView text={job.result} />
        </div>
      )}
      {job.error && (
        <p className="job-error error">
          <strong>{t("failed")}</strong> {job.error}
        </p>
      )}
    </li>
  );
}

/** The member's question (or a paused run) and a box for the owner's answer (`resume`). */
function AnswerBox({ teamId, job, act }: Pick<Props, "teamId" | "job" | "act">): ReactNode {
  const t = useT(teamsMessages);
  const [answer, setAnswer] = useState("");
  const [busy, setBusy] = useState(false);
  const [requestId] = useState(newRequestId);
  const question = job.clarification?.question;
  const options = job.clarification?.options ?? [];

  const reply = async (response: string, event?: FormEvent): Promise<void> => {
    event?.preventDefault();
    if (busy || response.trim() === "") return;
    setBusy(true);
    const sent = await act(() =>
      resumeJob({
        team_id: teamId,
        job_id: job.id,
        response: response.trim(),
        request_id: requestId,
      }),
    );
    if (!sent) setBusy(false);
  };

  return (
    <form className="clarification" role="note" onSubmit={(event) => void reply(answer, event)}>
      <div className="clarification-label">{t("needsInput")}</div>
      <p className="question">{question ?? t("pausedQuestion")}</p>
      {options.length > 0 && (
        <div className="options">
          {options.map((option) => (
            <button key={option} type="button" disabled={busy} onClick={() => void reply(option)}>
              {option}
            </button>
          ))}
        </div>
      )}
      <div className="answer-row">
        <input
          aria-label={t("answer")}
          placeholder={t("yourAnswer")}
          value={answer}
          disabled={busy}
          onChange={(event) => setAnswer(event.target.value)}
        />
        <button type="submit" className="primary" disabled={busy || answer.trim() === ""}>
          {t("answer")}
        </button>
      </div>
    </form>
  );
}
