/**
 * A stand-in for the extension host + agent-teams plugin behind the Teams page, installed with
 * Playwright's `page.route` on `/api/extensions*` (the rest of the API stays the real gateway's).
 * It keeps teams in memory and moves every open job one step per `get` poll (each status is
 * answered to at least one poll first), by its text:
 *
 * | task text contains | steps (one per poll)                                                    |
 * |--------------------|-------------------------------------------------------------------------|
 * | "write"            | queued → running (registers `brief.md`, pending) → completed (ready)    |
 * | "plan"             | queued → running → waiting_input (asks QUESTION) ; answer → resuming →  |
 * |                    | running → completed ("Planned for <answer>.")                           |
 * | "break"            | queued → running → failed (FAILURE)                                     |
 * | "hold"             | queued → running, until cancelled (→ cancelling → cancelled)            |
 * | anything else      | queued → running → completed                                            |
 *
 * Payloads are checked field by field as the plugin does (extra or missing fields → 422), so a UI
 * that sends the wrong shape fails here too. A real-server variant replaces this file with scripted
 * models that behave the same per text.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Page, Route } from "playwright-core";

export const NAMESPACE = "community.agent-teams";
export const QUESTION = "Which market should the launch target first?";
export const QUESTION_OPTIONS = ["Europe", "Japan"];
export const FAILURE = "The member's run failed: the model is unavailable.";
export const BRIEF = "# Launch brief\n\nShip the beta to **early users** first.\n";
export const DELETE_REFUSED = "Cancel or finish the team's active jobs before deleting it.";

type Status =
  | "queued"
  | "running"
  | "waiting_input"
  | "resuming"
  | "cancelling"
  | "cancelled"
  | "completed"
  | "failed";

interface Job {
  id: string;
  member_id: string;
  thread_id: string;
  kind: "request";
  text: string;
  status: Status;
  result: string | null;
  error: string | null;
  run_id: string | null;
  clarification: { question: string; options: string[] } | null;
  artifacts: Array<{ artifact_id: string; version: number }>;
  request_id: string;
  answer: string | null;
  /** A poll has shown the current status: only then may the next poll move it on. */
  shown: boolean;
}

interface Artifact {
  artifact_id: string;
  version: number;
  name: string;
  path: string;
  status: "pending" | "ready" | "failed";
  sha256?: string;
  size?: number;
  source: { run_id: string | null; job_id: string; member_id: string; thread_id: string };
  content: string;
}

interface Team {
  id: string;
  name: string;
  goal: string;
  ready: boolean;
  members: Array<{ id: string; name: string; agent: string; thread_id: string }>;
  jobs: Job[];
  artifacts: Artifact[];
  revision: number;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const TERMINAL: ReadonlySet<Status> = new Set(["cancelled", "completed", "failed"]);

export class TeamsApiStub {
  private readonly teams = new Map<string, Team>();

  /** Routes `/api/extensions*` of this page to the stub. */
  async install(page: Page): Promise<void> {
    await page.route(
      (url) => url.pathname === "/api/extensions" || url.pathname.startsWith("/api/extensions/"),
      (route) => this.answer(route),
    );
  }

  private async answer(route: Route): Promise<void> {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    try {
      if (path === "/api/extensions" && request.method() === "GET") {
        return await json(route, 200, {
          extensions: [{ namespace: NAMESPACE, version: "0.1.0", title: "Agent teams" }],
        });
      }
      const action = new RegExp(`^/api/extensions/${NAMESPACE}/actions/([a-z]+)$`).exec(path);
      if (action?.[1] && request.method() === "POST") {
        const body: unknown = request.postDataJSON();
        if (typeof body !== "object" || body === null || Array.isArray(body))
          throw new Refusal(422, "The payload must be a JSON object.");
        return await json(route, 200, this.act(action[1], body as Record<string, unknown>));
      }
      const bytes = new RegExp(
        `^/api/extensions/${NAMESPACE}/teams/([^/]+)/artifacts/([^/]+)/(\\d+)$`,
      ).exec(path);
      if (bytes && request.method() === "GET") {
        const artifact = this.team(String(bytes[1])).artifacts.find(
          (a) => a.artifact_id === bytes[2] && a.version === Number(bytes[3]),
        );
        if (artifact?.status !== "ready") throw new Refusal(404, "Artifact unavailable.");
        return await route.fulfill({
          status: 200,
          contentType: "text/markdown; charset=utf-8",
          body: artifact.content,
        });
      }
      throw new Refusal(404, "No such extension route.");
    } catch (error) {
      const status = error instanceof Refusal ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      await json(route, status, {
        detail: message,
        code: status === 409 ? "conflict" : "invalid_request",
      });
    }
  }

  private act(name: string, payload: Record<string, unknown>): unknown {
    switch (name) {
      case "list":
        fields(payload, [], []);
        return {
          teams: [...this.teams.values()].reverse().map(({ id, name, members, ready }) => ({
            id,
            name,
            members,
            ready,
          })),
        };
      case "create":
        return this.create(payload);
      case "get":
        return this.get(payload);
      case "send":
        return this.send(payload);
      case "resume": {
        fields(payload, ["team_id", "job_id", "response", "request_id"], []);
        const job = this.job(payload);
        if (job.status !== "waiting_input")
          throw new Refusal(409, "The job is not waiting for input.");
        if (typeof payload.response !== "string") throw new Refusal(422, "Invalid response");
        job.answer = payload.response;
        job.clarification = null;
        job.status = "resuming";
        job.shown = false;
        return this.touch(payload, { id: job.id, status: job.status });
      }
      case "cancel": {
        fields(payload, ["team_id", "job_id"], []);
        const job = this.job(payload);
        if (!TERMINAL.has(job.status)) {
          job.status = job.status === "queued" ? "cancelled" : "cancelling";
          job.shown = false;
        }
        return this.touch(payload, { id: job.id, status: job.status });
      }
      case "delete": {
        fields(payload, ["team_id"], []);
        const team = this.team(payload.team_id);
        if (team.jobs.some((job) => !TERMINAL.has(job.status)))
          throw new Refusal(409, DELETE_REFUSED);
        this.teams.delete(team.id);
        return { deleted: true };
      }
      default:
        throw new Refusal(404, `Unknown action ${name}.`);
    }
  }

  private create(payload: Record<string, unknown>): unknown {
    fields(payload, ["request_id", "name", "goal", "members"], []);
    const members = payload.members;
    if (!Array.isArray(members) || members.length < 2 || members.length > 8)
      throw new Refusal(422, "A team has 2 to 8 members.");
    const id = digest(["owner", payload.request_id]);
    const existing = this.teams.get(id);
    if (existing) return this.view(existing);
    const names = new Set<string>();
    const roster = members.map((member: unknown) => {
      const entry = (typeof member === "object" && member !== null ? member : {}) as Record<
        string,
        unknown
      >;
      fields(entry, ["name", "agent"], []);
      if (names.has(String(entry.name))) throw new Refusal(422, "Member names must be distinct.");
      names.add(String(entry.name));
      return {
        id: digest([id, entry.name]),
        name: String(entry.name),
        agent: String(entry.agent),
        thread_id: randomUUID(),
      };
    });
    const team: Team = {
      id,
      name: String(payload.name),
      goal: String(payload.goal),
      ready: true,
      members: roster,
      jobs: [],
      artifacts: [],
      revision: 1,
    };
    this.teams.set(id, team);
    return this.view(team);
  }

  /** Answers the projection; every poll first advances each open job one step. */
  private get(payload: Record<string, unknown>): unknown {
    fields(payload, ["team_id"], ["offset", "limit", "details", "revision"]);
    const team = this.team(payload.team_id);
    let moved = false;
    for (const job of team.jobs) {
      if (job.shown && advance(team, job)) {
        job.shown = false;
        moved = true;
      } else job.shown = true;
    }
    if (moved) team.revision += 1;
    const revision = String(team.revision);
    if (payload.revision === revision) return { unchanged: true, revision };
    return this.view(team, payload.details === true);
  }

  private send(payload: Record<string, unknown>): unknown {
    fields(payload, ["team_id", "member_id", "text", "request_id"], ["artifacts"]);
    const team = this.team(payload.team_id);
    const member = team.members.find((m) => m.id === payload.member_id);
    if (!member) throw new Refusal(422, "Unknown member.");
    const same = team.jobs.find((job) => job.request_id === payload.request_id);
    if (same) return { id: same.id, status: same.status };
    const attached = Array.isArray(payload.artifacts) ? payload.artifacts : [];
    const artifacts = attached.map((ref: unknown) => {
      const entry = (typeof ref === "object" && ref !== null ? ref : {}) as Record<string, unknown>;
      fields(entry, ["artifact_id", "version"], []);
      const found = team.artifacts.find(
        (a) =>
          a.artifact_id === entry.artifact_id &&
          a.version === entry.version &&
          a.status === "ready",
      );
      if (!found) throw new Refusal(422, "Only ready artifacts of the team can be attached.");
      return { artifact_id: found.artifact_id, version: found.version };
    });
    const job: Job = {
      id: digest([team.id, null, payload.request_id]),
      member_id: member.id,
      thread_id: member.thread_id,
      kind: "request",
      text: String(payload.text),
      status: "queued",
      result: null,
      error: null,
      run_id: null,
      clarification: null,
      artifacts,
      request_id: String(payload.request_id),
      answer: null,
      shown: false,
    };
    team.jobs.push(job);
    return this.touch(payload, { id: job.id, status: job.status });
  }

  private touch<T>(payload: Record<string, unknown>, answer: T): T {
    this.team(payload.team_id).revision += 1;
    return answer;
  }

  private team(teamId: unknown): Team {
    const team = this.teams.get(String(teamId));
    if (!team) throw new Refusal(404, "Team unavailable");
    return team;
  }

  private job(payload: Record<string, unknown>): Job {
    const job = this.team(payload.team_id).jobs.find((j) => j.id === payload.job_id);
    if (!job) throw new Refusal(404, "Job unavailable");
    return job;
  }

  /** Like the plugin, a job's task text is only in the `details` projection. */
  private view(team: Team, details = false): unknown {
    return {
      id: team.id,
      name: team.name,
      goal: team.goal,
      ready: team.ready,
      connected: true,
      members: team.members,
      total_jobs: team.jobs.length,
      jobs: team.jobs.map(({ request_id: _r, answer: _a, shown: _s, text, ...job }) =>
        details ? { ...job, text } : job,
      ),
      messages: [],
      artifacts: team.artifacts.map(({ content: _c, ...artifact }) => artifact),
      revision: String(team.revision),
    };
  }
}

/** One step of a job's script; true when something changed. */
function advance(team: Team, job: Job): boolean {
  const text = job.text.toLowerCase();
  switch (job.status) {
    case "queued":
      job.status = "running";
      job.run_id = randomUUID();
      if (text.includes("write")) register(team, job);
      return true;
    case "resuming":
      job.status = "running";
      job.run_id = randomUUID();
      return true;
    case "cancelling":
      job.status = "cancelled";
      return true;
    case "running":
      if (text.includes("hold")) return false;
      if (text.includes("break")) {
        job.status = "failed";
        job.error = FAILURE;
      } else if (text.includes("plan") && job.answer === null) {
        job.status = "waiting_input";
        job.clarification = { question: QUESTION, options: QUESTION_OPTIONS };
      } else {
        job.status = "completed";
        job.result = job.answer ? `Planned for **${job.answer}**.` : `Done: ${job.text}`;
        capture(team, job);
      }
      return true;
    default:
      return false;
  }
}

function register(team: Team, job: Job): void {
  const version = team.artifacts.filter((a) => a.name === "brief.md").length + 1;
  team.artifacts.push({
    artifact_id: digest([team.id, "brief.md"]),
    version,
    name: "brief.md",
    path: "/mnt/user-data/outputs/brief.md",
    status: "pending",
    source: {
      run_id: job.run_id,
      job_id: job.id,
      member_id: job.member_id,
      thread_id: job.thread_id,
    },
    content: BRIEF,
  });
}

function capture(team: Team, job: Job): void {
  for (const artifact of team.artifacts) {
    if (artifact.status !== "pending" || artifact.source.job_id !== job.id) continue;
    artifact.status = "ready";
    artifact.size = Buffer.byteLength(artifact.content);
    artifact.sha256 = createHash("sha256").update(artifact.content).digest("hex");
  }
}

/** The plugin validates the exact field set: every required one, nothing unknown. */
function fields(payload: Record<string, unknown>, required: string[], optional: string[]): void {
  for (const key of required)
    if (!(key in payload)) throw new Refusal(422, `Missing field ${key}.`);
  for (const key of Object.keys(payload))
    if (!required.includes(key) && !optional.includes(key))
      throw new Refusal(422, `Unknown field ${key}.`);
}

function digest(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

function json(route: Route, status: number, body: unknown): Promise<void> {
  return route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
}
