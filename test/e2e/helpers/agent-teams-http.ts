import { pluginToolName } from "../../../src/agent/tools/plugin-tools.js";
import { DEFAULT_USER_ID } from "../../../src/core/paths.js";
import { NAMESPACE, Teams } from "../../../src/plugins/agent-teams/index.js";
import type { ServedGateway } from "./served-gateway.js";

/*
 * The agent-teams plugin as a served gateway's user reaches it: its actions over HTTP, a member
 * thread's files and run events over the API, and (for byte checks) the plugin's stored artifacts.
 */

export interface TeamView {
  id: string;
  ready: boolean;
  connected: boolean;
  members: Array<{ id: string; name: string; thread_id: string }>;
}

export interface JobView {
  id: string;
  member_id: string;
  status: string;
  run_id: string | null;
  result: string | null;
  error: string | null;
}

export interface ArtifactView {
  artifact_id: string;
  version: number;
  name: string;
  path: string;
  status: string;
  sha256: string | null;
  size: number | null;
  source: { run_id: string; job_id: string; member_id: string; thread_id: string };
}

export interface TeamDetails extends TeamView {
  jobs: JobView[];
  artifacts: ArtifactView[];
  revision: string;
}

export interface ApiEvent {
  event_type: string;
  content: Record<string, unknown>;
}

/** Generous: each job is a few scripted turns, advanced by a 1 s service tick. */
const TEAM_WAIT_MS = 60_000;
const FINISHED = new Set(["completed", "failed", "cancelled"]);

export function teamsOverHttp(server: ServedGateway) {
  const api = server.apiUrl;
  async function action<T>(name: string, payload: Record<string, unknown>): Promise<T> {
    const response = await fetch(`${api}/extensions/${NAMESPACE}/actions/${name}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    const body: unknown = await response.json();
    if (!response.ok) {
      throw new Error(`${name} answered ${response.status}: ${JSON.stringify(body)}`);
    }
    return body as T;
  }

  /** Polls `get` until `done` holds of the team (the service ticks every second), bounded. */
  async function waitForTeam(
    teamId: string,
    done: (team: TeamDetails) => boolean,
  ): Promise<TeamDetails> {
    const deadline = Date.now() + TEAM_WAIT_MS;
    let last: TeamDetails | null = null;
    while (Date.now() < deadline) {
      last = await action<TeamDetails>("get", { team_id: teamId });
      if (done(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`The team did not get there in time; last seen: ${JSON.stringify(last)}`);
  }

  /** The job once it finished, however it finished. */
  async function finishedJob(teamId: string, jobId: string) {
    const team = await waitForTeam(teamId, (t) =>
      t.jobs.some((j) => j.id === jobId && FINISHED.has(j.status)),
    );
    const job = team.jobs.find((j) => j.id === jobId);
    if (job === undefined) throw new Error(`job ${jobId} vanished`);
    return { team, job };
  }

  /** A thread's file through `GET /threads/{id}/artifacts/{path}`, or null for a 404. */
  async function threadFile(threadId: string, path: string): Promise<Buffer | null> {
    const response = await fetch(`${api}/threads/${threadId}/artifacts${path}`);
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  }

  async function runEvents(threadId: string, runId: string): Promise<ApiEvent[]> {
    const response = await fetch(`${api}/threads/${threadId}/runs/${runId}/events`);
    if (!response.ok) throw new Error(`run events answered ${response.status}`);
    return (await response.json()) as ApiEvent[];
  }

  /** The plugin's service instance in this server. */
  function service(): Teams {
    const loaded = server.fawn.extensions.plugins.find((p) => p.namespace === NAMESPACE);
    const teams = loaded?.contributions.services.find((s) => s instanceof Teams);
    if (!(teams instanceof Teams)) throw new Error("The agent-teams plugin is not running.");
    return teams;
  }

  /** The stored bytes of a ready artifact version, as the plugin keeps them. */
  async function artifactBytes(teamId: string, artifactId: string, version: number) {
    const { content } = await service().store.artifact(
      DEFAULT_USER_ID,
      teamId,
      artifactId,
      version,
    );
    return Buffer.from(content);
  }

  return { action, waitForTeam, finishedJob, threadFile, runEvents, service, artifactBytes };
}

export const OUTPUTS_REPORT = "/mnt/user-data/outputs/report.md";

/**
 * A member's scripted turns: read `reads` if given, write `content` to outputs/report.md,
 * register it as the team artifact `report`, present it, answer "<member> finished the report.".
 */
export function memberTurns(
  teamId: string,
  member: string,
  content: string,
  reads: string | null,
): Array<Record<string, unknown>> {
  const call = (name: string, args: Record<string, unknown>) => ({ tool_calls: [{ name, args }] });
  return [
    ...(reads === null ? [] : [call("read_file", { description: "the draft", path: reads })]),
    call("write_file", { description: "report", path: OUTPUTS_REPORT, content }),
    call(pluginToolName(NAMESPACE, "register_team_artifact"), {
      team_id: teamId,
      request_id: `${member}-report`,
      name: "report",
      path: OUTPUTS_REPORT,
    }),
    call("present_files", { filepaths: [OUTPUTS_REPORT] }),
    { content: `${member} finished the report.` },
  ];
}
