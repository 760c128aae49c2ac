import { createHash, randomUUID } from "node:crypto";
import type { ActionContext, BackendAction } from "../../extensions/api/index.js";
import { findJob, finishJob } from "./jobs.js";
import { trailingClarification } from "./messages.js";
import { identity, isTerminal, type Job, now, type Team } from "./model.js";
import { bool, fields, int, list, type Payload, record, text, utf8Bytes } from "./payload.js";
import { sendRequest } from "./send.js";
import type { Teams } from "./teams.js";

const MAX_RESPONSE_BYTES = 8000;

/** The HTTP actions (`POST /api/extensions/community.agent-teams/actions/<name>`). */
export function teamActions(teams: Teams): BackendAction[] {
  const action = (
    name: string,
    handler: (payload: Payload, context: ActionContext, owner: string) => Promise<unknown>,
  ): BackendAction => ({
    name,
    handler: (payload, context) => handler(payload, context, context.principal.userId),
  });
  return [
    action("create", (p, c, owner) => create(teams, p, c, owner)),
    action("list", async (p, _c, owner) => {
      fields(p, []);
      const all = await teams.store.list(owner);
      return {
        teams: all.map((t) => ({ id: t.id, name: t.name, members: t.members, ready: t.ready })),
      };
    }),
    action("get", (p, _c, owner) => get(teams, p, owner)),
    action("connect", async (p, c, owner) => {
      fields(p, ["team_id"]);
      const team = await teams.store.get(owner, text(p, "team_id", 64));
      return view(await ensureThreads(teams, team, c, owner), teams, owner);
    }),
    action("send", (p, c, owner) => sendRequest(teams, owner, p, null, c.agentRuns)),
    action("cancel", async (p, _c, owner) => {
      fields(p, ["team_id", "job_id"]);
      const jobId = text(p, "job_id", 64);
      return teams.store.change(owner, text(p, "team_id", 64), (team) => {
        const job = findJob(team, jobId);
        if (!isTerminal(job)) {
          if (job.input === null) finishJob(team, job.id, "cancelled", null, "Cancelled.");
          else job.status = "cancelling";
        }
        return { id: job.id, status: job.status };
      });
    }),
    action("resume", (p, c, owner) => resume(teams, p, c, owner)),
    action("delete", async (p, _c, owner) => {
      fields(p, ["team_id"]);
      const teamId = text(p, "team_id", 64);
      const team = await teams.store.get(owner, teamId);
      if (team.jobs.some((j) => !isTerminal(j))) {
        throw new Error("The team still has unfinished jobs; cancel them before deleting it.");
      }
      await teams.store.delete(owner, teamId);
      return { deleted: teamId };
    }),
  ];
}

async function create(teams: Teams, p: Payload, c: ActionContext, owner: string): Promise<unknown> {
  fields(p, ["request_id", "name", "goal", "members"]);
  const requestId = text(p, "request_id", 128);
  const name = text(p, "name", 80);
  const goal = text(p, "goal", 2000);
  const members = list(p, "members", 2, 8).map((entry) => {
    const m = record(entry, "A member");
    fields(m, ["name", "agent"]);
    return { name: text(m, "name", 80), agent: text(m, "agent", 128) };
  });
  if (new Set(members.map((m) => m.name)).size !== members.length) {
    throw new Error("Member names must be distinct.");
  }
  const team: Team = {
    id: identity(owner, requestId),
    name,
    goal,
    request_id: requestId,
    members: members.map((m) => ({
      id: hex(),
      name: m.name,
      agent: m.agent,
      thread_id: randomUUID(),
    })),
    messages: [],
    jobs: [],
    artifacts: [],
    ready: false,
    created_at: now(),
  };
  const stored = await teams.store.create(owner, team);
  return view(await ensureThreads(teams, stored, c, owner), teams, owner);
}

/** Creates every member's thread (idempotent) with the caller's handle, then marks the team ready. */
async function ensureThreads(
  teams: Teams,
  team: Team,
  c: ActionContext,
  owner: string,
): Promise<Team> {
  const runs = teams.bind(owner, team.id, c.agentRuns);
  for (const member of team.members) {
    await runs.createThread({
      assistantId: member.agent,
      threadId: member.thread_id,
      metadata: { title: `${team.name} · ${member.name}` },
    });
  }
  return teams.store.change(owner, team.id, (t) => {
    t.ready = true;
    return structuredClone(t);
  });
}

async function get(teams: Teams, p: Payload, owner: string): Promise<unknown> {
  fields(p, ["team_id"], ["offset", "limit", "details", "revision"]);
  const team = await teams.store.get(owner, text(p, "team_id", 64));
  const offset = int(p, "offset", 0, 200, 0);
  const limit = int(p, "limit", 1, 200, 20);
  const details = bool(p, "details", false);
  const projection = {
    ...view(team, teams, owner),
    total_jobs: team.jobs.length,
    jobs: team.jobs.slice(offset, offset + limit).map((j) => jobView(j, details)),
    messages: team.messages,
    artifacts: team.artifacts.map(({ registration: _r, ...a }) => a),
  };
  const revision = createHash("sha256").update(JSON.stringify(projection)).digest("hex");
  if (p.revision !== undefined && p.revision === revision) return { unchanged: true, revision };
  return { ...projection, revision };
}

function view(team: Team, teams: Teams, owner: string) {
  return {
    id: team.id,
    name: team.name,
    goal: team.goal,
    members: team.members,
    ready: team.ready,
    connected: teams.connected(owner, team.id),
  };
}

function jobView(job: Job, details: boolean) {
  const base = {
    id: job.id,
    member_id: job.member_id,
    kind: job.kind,
    status: job.status,
    request_id: job.request_id,
    source: job.source,
    parent_id: job.parent_id,
    run_id: job.run_id,
    result: job.result,
    error: job.error,
    clarification: job.clarification,
    artifacts: job.artifacts,
    created_at: job.created_at,
    completed_at: job.completed_at,
  };
  return details ? { ...base, text: job.text, imported: job.artifact_imports.length } : base;
}

async function resume(teams: Teams, p: Payload, c: ActionContext, owner: string): Promise<unknown> {
  fields(p, ["team_id", "job_id", "response", "request_id"]);
  const teamId = text(p, "team_id", 64);
  const jobId = text(p, "job_id", 64);
  const requestId = text(p, "request_id", 128);
  const response = p.response;
  if (response === null || response === undefined) throw new Error("A response is required.");
  const size =
    typeof response === "string" ? utf8Bytes(response) : utf8Bytes(JSON.stringify(response));
  if (size > MAX_RESPONSE_BYTES) throw new Error("The response exceeds 8 KiB (8000 bytes).");
  const key = identity(jobId, requestId);
  const job = findJob(await teams.store.get(owner, teamId), jobId);
  if (job.status === "resuming" && job.resume?.key === key)
    return { id: job.id, status: job.status };
  if (job.status !== "waiting_input") throw new Error("The job is not waiting for input.");
  let input: Record<string, unknown> | null = null;
  const clarification = job.clarification;
  if (job.waiting === "clarification" && clarification !== null) {
    if (typeof response !== "string") {
      throw new Error("Invalid response: a clarification is answered with text.");
    }
    const runs = teams.bind(owner, teamId, c.agentRuns);
    const latest = trailingClarification(await runs.getState({ threadId: job.thread_id }));
    if (latest?.request_id !== clarification.request_id) {
      throw new Error("Clarification changed: the member's conversation moved on; reload the job.");
    }
    input = {
      messages: [
        {
          role: "user",
          content: response,
          additional_kwargs: { human_input_response: { request_id: clarification.request_id } },
        },
      ],
    };
  } else if (c.agentRuns !== null) {
    teams.bind(owner, teamId, c.agentRuns);
  }
  return teams.store.change(owner, teamId, (team) => {
    const j = findJob(team, jobId);
    if (j.status !== "waiting_input") throw new Error("The job is not waiting for input.");
    j.status = "resuming";
    j.resume = { response, key, input };
    return { id: j.id, status: j.status };
  });
}

const hex = (): string => randomUUID().replaceAll("-", "");
