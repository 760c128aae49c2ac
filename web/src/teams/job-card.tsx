import { type FormEvent, type ReactNode, useState } from "react";
import { MarkdownView } from "../markdown/markdown-view.js";
import { canCancel, statusLabel } from "./job-status.js";
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
  const receipt = job.kind === "receipt";
  return (
    <li className={`job status-${job.status}`} data-job-id={job.id} data-status={job.status}>
      <div className="job-head">
        <span className="job-member">{receipt ? `Delivery to ${memberName}` : memberName}</span>
        <span className={`badge status-${job.status}`}>{statusLabel(job.status)}</span>
        <span className="spacer" />
        {canCancel(job.status) && (
          <button
            type="button"
            className="small"
            aria-label={`Cancel the job for ${memberName}`}
            onClick={() => void act(() => cancelJob(teamId, job.id))}
          >
            Cancel
          </button>
        )}
      </div>
      {!receipt && <div className="plain job-text">{job.text}</div>}
      {(job.artifacts ?? []).length > 0 && (
        <ul className="file-chips">
          {(job.artifacts ?? []).map((ref) => (
            <li key={`${ref.artifact_id}@${ref.version}`} className="chip">
              {artifactName(ref.artifact_id)} v{ref.version}
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
          <strong>Failed:</strong> {job.error}
        </p>
      )}
    </li>
  );
}

/** The member's question (or a paused run) and a box for the owner's answer (`resume`). */
function AnswerBox({ teamId, job, act }: Pick<Props, "teamId" | "job" | "act">): ReactNode {
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
      <div className="clarification-label">Needs your input</div>
      <p className="question">{question ?? "The member paused and waits for your answer."}</p>
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
          aria-label="Answer"
          placeholder="Your answer"
          value={answer}
          disabled={busy}
          onChange={(event) => setAnswer(event.target.value)}
        />
        <button type="submit" className="primary" disabled={busy || answer.trim() === ""}>
          Answer
        </button>
      </div>
    </form>
  );
}
