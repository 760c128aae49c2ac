import { extensionAction, extensionBlob, extensionPath } from "../api/extensions.js";
import type { ArtifactRef, NewMember, Team, TeamAnswer, TeamSummary } from "./team-types.js";

/** The agent-teams plugin's actions, as the Teams page calls them. */
export const TEAMS_NAMESPACE = "community.agent-teams";

/** Jobs fetched per `get` (the action's maximum page). */
const JOB_PAGE = 200;

const action = <T>(name: string, payload: Record<string, unknown>, signal?: AbortSignal) =>
  extensionAction<T>(TEAMS_NAMESPACE, name, payload, signal);

export function newRequestId(): string {
  return crypto.randomUUID();
}

export async function listTeams(): Promise<TeamSummary[]> {
  return (await action<{ teams: TeamSummary[] }>("list", {})).teams;
}

export function createTeam(request: {
  request_id: string;
  name: string;
  goal: string;
  members: NewMember[];
}): Promise<Team> {
  return action<Team>("create", request);
}

/** The team, or `{unchanged}` when `revision` is still current. */
export function getTeam(teamId: string, revision: string | null, signal?: AbortSignal) {
  return action<TeamAnswer>(
    "get",
    // `details`: each job's task text, which its card shows (the plugin omits it by default).
    {
      team_id: teamId,
      offset: 0,
      limit: JOB_PAGE,
      details: true,
      ...(revision ? { revision } : {}),
    },
    signal,
  );
}

export function sendTask(request: {
  team_id: string;
  member_id: string;
  text: string;
  request_id: string;
  artifacts: ArtifactRef[];
}): Promise<{ id: string; status: string }> {
  const { artifacts, ...rest } = request;
  return action("send", artifacts.length > 0 ? request : rest);
}

export function resumeJob(request: {
  team_id: string;
  job_id: string;
  response: string;
  request_id: string;
}): Promise<unknown> {
  return action("resume", request);
}

export function cancelJob(teamId: string, jobId: string): Promise<unknown> {
  return action("cancel", { team_id: teamId, job_id: jobId });
}

export function deleteTeam(teamId: string): Promise<unknown> {
  return action("delete", { team_id: teamId });
}

/** An artifact version's bytes (`GET …/teams/<team>/artifacts/<artifact>/<version>`). */
export function artifactBytes(teamId: string, ref: ArtifactRef, signal?: AbortSignal) {
  const path = extensionPath(
    TEAMS_NAMESPACE,
    "teams",
    teamId,
    "artifacts",
    ref.artifact_id,
    String(ref.version),
  );
  return extensionBlob(path, signal);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
