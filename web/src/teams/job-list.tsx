import type { ReactNode } from "react";
import { useT } from "../i18n/locale-context.js";
import { teamsMessages } from "../i18n/messages/teams.js";
import { JobCard } from "./job-card.js";
import type { Team } from "./team-types.js";

interface Props {
  team: Team;
  act: (run: () => Promise<unknown>) => Promise<boolean>;
}

/** The team's jobs, newest first. */
export function JobList({ team, act }: Props): ReactNode {
  const t = useT(teamsMessages);
  const names = new Map(team.members.map((member) => [member.id, member.name]));
  const artifactNames = new Map(
    (team.artifacts ?? []).map((artifact) => [artifact.artifact_id, artifact.name]),
  );
  const jobs = [...team.jobs].reverse();
  const hidden = (team.total_jobs ?? team.jobs.length) - team.jobs.length;
  return (
    <section className="jobs" aria-labelledby="jobs-title">
      <h2 id="jobs-title">{t("jobs")}</h2>
      {jobs.length === 0 && <p className="muted">{t("noJobs")}</p>}
      <ol className="job-list">
        {jobs.map((job) => (
          <JobCard
            key={job.id}
            teamId={team.id}
            job={job}
            memberName={names.get(job.member_id) ?? t("aMember")}
            artifactName={(id) => artifactNames.get(id) ?? id}
            act={act}
          />
        ))}
      </ol>
      {hidden > 0 && <p className="muted small">{t("olderJobs", { count: hidden })}</p>}
    </section>
  );
}
