import type { AgentRuns } from "../../extensions/api/index.js";
import { findJob, newJob } from "./jobs.js";
import { type ArtifactRef, identity, isTerminal, type Job, type Team } from "./model.js";
import { fields, list, type Payload, record, text, utf8Bytes } from "./payload.js";
import type { Teams } from "./teams.js";

/*
 * `send` (owner action) and `send_member` (a member's tool): queue a request to a member.
 */

export const MAX_REQUESTS = 100;
export const MAX_JOBS = 200;
export const MAX_CHAIN = 12;
export const MAX_ATTACHMENTS = 8;
const MAX_TEXT_CHARS = 4000;
const MAX_TEXT_BYTES = 8000;

export async function sendRequest(
  teams: Teams,
  owner: string,
  payload: Payload,
  source: string | null,
  runs: AgentRuns | null,
): Promise<{ id: string; status: Job["status"] }> {
  fields(payload, ["team_id", "member_id", "text", "request_id"], ["artifacts"]);
  const teamId = text(payload, "team_id", 64);
  const memberId = text(payload, "member_id", 64);
  const body = text(payload, "text", MAX_TEXT_CHARS);
  if (utf8Bytes(body) > MAX_TEXT_BYTES) {
    throw new Error(`"text" exceeds the limit of ${MAX_TEXT_BYTES} UTF-8 bytes.`);
  }
  const requestId = text(payload, "request_id", 128);
  const artifacts: ArtifactRef[] =
    payload.artifacts === undefined
      ? []
      : list(payload, "artifacts", 0, MAX_ATTACHMENTS).map((entry) => {
          const ref = record(entry, "An attachment");
          fields(ref, ["artifact_id", "version"]);
          const version = ref.version;
          if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
            throw new Error("An attachment's version must be a positive integer.");
          }
          return { artifact_id: text(ref, "artifact_id", 64), version };
        });
  const jobId = identity(teamId, source, requestId);
  const result = await teams.store.change(owner, teamId, (team) => {
    const member = team.members.find((m) => m.id === memberId);
    if (member === undefined) throw new Error("Member unavailable: no such member in this team.");
    if (source !== null) {
      if (!team.members.some((m) => m.thread_id === source)) {
        throw new Error("Only a member's own conversation can send to its team.");
      }
      if (member.thread_id === source) throw new Error("A member cannot send a request to itself.");
    }
    const existing = team.jobs.find((j) => j.id === jobId);
    if (existing !== undefined) {
      const same =
        existing.member_id === memberId &&
        existing.text === body &&
        JSON.stringify(existing.artifacts) === JSON.stringify(artifacts);
      if (!same) throw new Error("request_id was already used for a different request.");
      return { id: existing.id, status: existing.status };
    }
    for (const ref of artifacts) checkAttachable(team, ref);
    const requests = team.jobs.filter((j) => j.kind === "request").length;
    if (requests >= MAX_REQUESTS || team.jobs.length >= MAX_JOBS) {
      throw new Error(`Request limit reached: at most ${MAX_REQUESTS} requests per team.`);
    }
    const parent =
      source === null ? undefined : team.jobs.find((j) => j.thread_id === source && !isTerminal(j));
    const root = parent?.root ?? jobId;
    if (team.jobs.filter((j) => j.root === root && j.kind === "request").length >= MAX_CHAIN) {
      throw new Error(
        `Chain limit reached: at most ${MAX_CHAIN} requests follow from one request.`,
      );
    }
    team.jobs.push(
      newJob({
        id: jobId,
        root,
        parent_id: parent?.id ?? null,
        member_id: member.id,
        thread_id: member.thread_id,
        source,
        kind: "request",
        request_id: requestId,
        text: body,
        artifacts,
      }),
    );
    return { id: jobId, status: findJob(team, jobId).status };
  });
  if (runs !== null) teams.bind(owner, teamId, runs);
  return result;
}

function checkAttachable(team: Team, ref: ArtifactRef): void {
  const artifact = team.artifacts.find(
    (a) => a.artifact_id === ref.artifact_id && a.version === ref.version,
  );
  if (artifact === undefined || artifact.status !== "ready") {
    throw new Error(
      `Artifact ${ref.artifact_id} version ${ref.version} is not a ready file of this team.`,
    );
  }
}
