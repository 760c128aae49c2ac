/**
 * The agent-teams artifact route through the gateway `fawn serve` builds, with the real plugin:
 * `GET /api/extensions/community.agent-teams/teams/:team/artifacts/:artifact/:version` answers a
 * ready version's bytes to the team's owner, typed by the artifact's name (Markdown inline, HTML
 * an attachment, `nosniff` always); another user's team, a pending or failed version, an unknown
 * version and a malformed address are 404s whose message says why.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NAMESPACE, Teams } from "../../src/plugins/agent-teams/index.js";
import { type Artifact, identity } from "../../src/plugins/agent-teams/model.js";
import { sha256, WithContents } from "../../src/plugins/agent-teams/store.js";
import { type PluginServer, startPluginServer } from "../extensions/host/plugin-server.js";

const REPORT = "# Launch brief\n\nShip it — on Tuesday.\n";
const PAGE = "<script>alert(1)</script>";

let server: PluginServer;
let teamId: string;
const ids = { report: "", page: "", draft: "", broken: "" };

beforeAll(async () => {
  server = await startPluginServer({
    plugins: [{ use: "agent-teams", config: { enabled: true } }],
    config: (home) => ({ database: { url: `sqlite:${join(home, "fawn.db")}` } }),
  });
  const created = await server.request("POST", `/api/extensions/${NAMESPACE}/actions/create`, {
    request_id: "route-test",
    name: "Launch crew",
    goal: "Write the brief.",
    members: [
      { name: "Writer", agent: "lead_agent" },
      { name: "Critic", agent: "lead_agent" },
    ],
  });
  expect(created.status).toBe(200);
  teamId = ((await created.json()) as { id: string }).id;
  const plugin = server.fawn.extensions.plugins.find((p) => p.namespace === NAMESPACE);
  const service = plugin?.contributions.services.find((s) => s instanceof Teams);
  const teams = service instanceof Teams ? service : null;
  if (teams === null) throw new Error("the agent-teams plugin did not load");
  // The store as the completing pass leaves it: two ready versions, one pending, one failed.
  await teams.store.change("alice", teamId, (team) => {
    const add = (name: string, status: Artifact["status"], content: string | null) => {
      const artifactId = identity(team.id, name);
      const bytes = content === null ? null : new TextEncoder().encode(content);
      team.artifacts.push({
        artifact_id: artifactId,
        version: 1,
        name,
        path: `/mnt/user-data/outputs/${name}`,
        status,
        error: status === "failed" ? "The file changed after the job completed." : null,
        sha256: bytes === null ? null : sha256(bytes),
        size: bytes?.byteLength ?? null,
        request_id: name,
        registration: identity(team.id, "thread", name),
        source: { run_id: "r", job_id: "j", member_id: "m", thread_id: "t" },
        created_at: new Date().toISOString(),
      });
      return { artifactId, bytes };
    };
    const report = add("brief.md", "ready", REPORT);
    const page = add("page.html", "ready", PAGE);
    const draft = add("draft.md", "pending", null);
    const broken = add("broken.md", "failed", null);
    Object.assign(ids, {
      report: report.artifactId,
      page: page.artifactId,
      draft: draft.artifactId,
      broken: broken.artifactId,
    });
    return new WithContents(
      undefined,
      [report, page].map(({ artifactId, bytes }) => ({
        artifactId,
        version: 1,
        content: bytes ?? new Uint8Array(),
      })),
    );
  });
});

afterAll(async () => {
  await server?.close();
});

const get = (artifactId: string, version = "1", user = "alice", team = teamId) =>
  server.request(
    "GET",
    `/api/extensions/${NAMESPACE}/teams/${team}/artifacts/${artifactId}/${version}`,
    undefined,
    user,
  );

async function expect404(response: Response, message: string): Promise<void> {
  expect(response.status).toBe(404);
  const body = (await response.json()) as { detail: string };
  expect(body.detail).toContain(message);
}

describe("GET …/teams/:team_id/artifacts/:artifact_id/:version", () => {
  it("answers a ready version's bytes to the owner, typed by the artifact's name", async () => {
    const response = await get(ids.report);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^inline; filename="brief.md"/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(new TextDecoder().decode(bytes)).toBe(REPORT);
  });

  it("serves an HTML artifact as an attachment, never inline", async () => {
    const response = await get(ids.page);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="page.html"/,
    );
    expect(await response.text()).toBe(PAGE);
  });

  it("is a 404 for another user's team, exactly as for a missing one", async () => {
    await expect404(await get(ids.report, "1", "mallory"), "Team unavailable");
    await expect404(await get(ids.report, "1", "alice", "0".repeat(32)), "Team unavailable");
  });

  it("is a 404 saying so for a pending, failed or unknown version", async () => {
    await expect404(await get(ids.draft), "version 1 is pending");
    await expect404(await get(ids.broken), "version 1 is failed");
    await expect404(await get(ids.report, "2"), "no such version");
    await expect404(await get("f".repeat(32)), "no such version");
  });

  it("is a 404 for a malformed address, and a 401 without a session", async () => {
    await expect404(await get(ids.report, "0"), "version ≥ 1");
    await expect404(await get(ids.report, "one"), "version ≥ 1");
    await expect404(await get("not-an-id"), "Artifact unavailable");
    expect((await get(ids.report, "1", "")).status).toBe(401);
  });
});
