import type { ModelTool, ToolContext } from "../../extensions/api/index.js";
import { identity, isTerminal, NAMESPACE, now, type Team } from "./model.js";
import { fields, type Payload, text } from "./payload.js";
import { sendRequest } from "./send.js";
import type { Teams } from "./teams.js";

const MAX_ARTIFACTS = 100;
const CONTEXT_BYTES = 24_000;
const OUTPUTS = "/mnt/user-data/outputs/";

const schema = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const str = (description: string) => ({ type: "string", description });

/** The model tools a member's agent gets. */
export function teamTools(teams: Teams): ModelTool[] {
  return [
    {
      name: "send_member",
      description:
        "Ask another member of your team to do something. The answer arrives later as a new message in this conversation.",
      inputSchema: schema(
        {
          team_id: str("The team."),
          member_id: str("The member to ask."),
          text: str("The request."),
          request_id: str("A unique id for this request (a retry reuses it)."),
          artifacts: {
            type: "array",
            items: schema({ artifact_id: { type: "string" }, version: { type: "integer" } }, [
              "artifact_id",
              "version",
            ]),
          },
        },
        ["team_id", "member_id", "text", "request_id"],
      ),
      handler: (payload, context) =>
        sendRequest(teams, context.principal.userId, payload, context.threadId, context.agentRuns),
    },
    {
      name: "read_team_context",
      description: "Read your team's goal, its members and its recent shared messages.",
      inputSchema: schema({ team_id: str("The team.") }, ["team_id"]),
      handler: async (payload, context) => {
        fields(payload, ["team_id"]);
        const team = await memberTeam(teams, payload, context);
        const out = {
          goal: team.goal,
          members: team.members.map(({ id, name, agent }) => ({ id, name, agent })),
          messages: team.messages.slice(-8),
        };
        while (out.messages.length > 0 && Buffer.byteLength(JSON.stringify(out)) > CONTEXT_BYTES) {
          out.messages.shift();
        }
        return out;
      },
    },
    {
      name: "register_team_artifact",
      description:
        "Register a file you wrote under /mnt/user-data/outputs/ as a team artifact. It is captured when your current task completes, and teammates can then be sent it.",
      inputSchema: schema(
        {
          team_id: str("The team."),
          request_id: str("A unique id for this registration (a retry reuses it)."),
          name: str("A short name for the file; registering the same name again adds a version."),
          path: str("The file's path, under /mnt/user-data/outputs/."),
        },
        ["team_id", "request_id", "name", "path"],
      ),
      handler: (payload, context) => registerArtifact(teams, payload, context),
    },
  ];
}

async function memberTeam(teams: Teams, payload: Payload, context: ToolContext): Promise<Team> {
  const team = await teams.store.get(context.principal.userId, text(payload, "team_id", 64));
  if (!team.members.some((m) => m.thread_id === context.threadId)) {
    throw new Error("This conversation is not a member of that team.");
  }
  return team;
}

/**
 * Records a file of the caller's executing job as a pending artifact, after the host proved the
 * job's admission is executing now. Idempotent per team, caller thread and request id.
 */
async function registerArtifact(
  teams: Teams,
  payload: Payload,
  context: ToolContext,
): Promise<unknown> {
  fields(payload, ["team_id", "request_id", "name", "path"]);
  const owner = context.principal.userId;
  const requestId = text(payload, "request_id", 128);
  const name = text(payload, "name", 80);
  const path = text(payload, "path", 512);
  if (!path.startsWith(OUTPUTS) || path.split("/").some((part) => part === ".." || part === ".")) {
    throw new Error(`The path must name a file under ${OUTPUTS}.`);
  }
  const team = await memberTeam(teams, payload, context);
  const registration = identity(team.id, context.threadId, requestId);
  const known = team.artifacts.find((a) => a.registration === registration);
  if (known !== undefined) return repeated(known, name, path);
  const job = team.jobs.find((j) => j.thread_id === context.threadId && !isTerminal(j));
  const admitted =
    job !== undefined &&
    job.input !== null &&
    (job.status === "running" || job.status === "resuming" || job.status === "queued");
  if (job === undefined || !admitted) {
    throw new Error(
      "No team job is executing in this conversation; files register only while one runs.",
    );
  }
  const key =
    job.status === "resuming" && job.resume !== null
      ? job.resume.key
      : (job.execution_key ?? job.id);
  // The saved run id belongs to this execution only if it was acknowledged for this key.
  const runId = context.runId ?? (job.run_key === key ? job.run_id : null);
  if (context.agentRuns === null) throw new Error("This conversation has no run handle.");
  const runs = context.agentRuns.forPlugin(NAMESPACE);
  const run = await runs.validateArtifactSource({
    threadId: context.threadId,
    runId,
    idempotencyKey: key,
  });
  const member = team.members.find((m) => m.thread_id === context.threadId);
  return teams.store.change(owner, team.id, (t) => {
    const again = t.artifacts.find((a) => a.registration === registration);
    if (again !== undefined) return repeated(again, name, path);
    if (t.artifacts.length >= MAX_ARTIFACTS) {
      throw new Error(`Artifact limit reached: at most ${MAX_ARTIFACTS} per team.`);
    }
    const artifactId = identity(t.id, name);
    const versions = t.artifacts.filter((a) => a.artifact_id === artifactId).map((a) => a.version);
    const artifact = {
      artifact_id: artifactId,
      version: Math.max(0, ...versions) + 1,
      name,
      path,
      status: "pending" as const,
      error: null,
      sha256: null,
      size: null,
      request_id: requestId,
      registration,
      source: {
        run_id: run.runId,
        job_id: job.id,
        member_id: member?.id ?? job.member_id,
        thread_id: context.threadId,
      },
      created_at: now(),
    };
    t.artifacts.push(artifact);
    return { artifact: publicArtifact(artifact) };
  });
}

function repeated(artifact: Team["artifacts"][number], name: string, path: string) {
  if (artifact.name !== name || artifact.path !== path) {
    throw new Error("request_id was already used to register another file.");
  }
  return { artifact: publicArtifact(artifact) };
}

function publicArtifact({ registration: _r, ...artifact }: Team["artifacts"][number]) {
  return artifact;
}
