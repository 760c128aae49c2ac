/**
 * Agent teams across a restart: the process that took a team's request stops before any tick
 * advanced it (a peer held the service lease); the next process over the same home, where no
 * caller has acted on the team, advances the job with the host's server-side run handle for the
 * owner (`agentRunsFor`) — through the real runtime, to a completed job and a ready artifact.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { NAMESPACE, ServiceLease } from "../../src/plugins/agent-teams/index.js";
import { identity } from "../../src/plugins/agent-teams/model.js";
import {
  memberTurns,
  OUTPUTS_REPORT,
  type TeamDetails,
  type TeamView,
  teamsOverHttp,
} from "./helpers/agent-teams-http.js";
import { type ServedGateway, startServedGateway } from "./helpers/served-gateway.js";

const DRAFT = "# Notes\n\nWritten after the restart.\n";
const MINUTE = 60_000;

let home = "";
const servers: ServedGateway[] = [];

async function serve(): Promise<ServedGateway> {
  const server = await startServedGateway({
    home,
    config: (at) => ({
      models: [{ name: "scripted", use: "scripted", model: "s", script: join(at, "team.yaml") }],
      plugins: [{ use: "agent-teams", config: { enabled: true } }],
    }),
  });
  servers.push(server);
  return server;
}

afterAll(async () => {
  for (const server of servers) await server.close();
  if (home !== "") await rm(home, { recursive: true, force: true });
});

/** Above the bounded waits inside (each job at most a minute). */
const TEST_TIMEOUT_MS = 150_000;

describe("a team job queued before a restart", () => {
  it(
    "is advanced by the next process with the server-side handle for the owner",
    async () => {
      home = await mkdtemp(join(tmpdir(), "fawn-e2e-teams-"));
      const first = await serve();
      const before = teamsOverHttp(first);
      // A peer holds the service lease (its clock runs ahead, so it outlives this process).
      const peer = new ServiceLease(before.service().store, () => Date.now() + 10 * MINUTE);
      expect(await peer.acquire()).toBe(true);

      const team = await before.action<TeamView>("create", {
        request_id: "restart-team",
        name: "Night shift",
        goal: "Keep notes.",
        members: [
          { name: "Author", agent: "lead_agent" },
          { name: "Editor", agent: "lead_agent" },
        ],
      });
      const author = team.members[0];
      if (author === undefined) throw new Error("Author expected");
      await writeFile(
        join(home, "team.yaml"),
        stringify([
          { match: "You are Author", turns: memberTurns(team.id, "Author", DRAFT, null) },
        ]),
      );
      const job = await before.action<{ id: string }>("send", {
        team_id: team.id,
        member_id: author.id,
        text: "Write the notes.",
        request_id: "notes",
      });
      const queued = await before.action<TeamDetails>("get", { team_id: team.id });
      expect(queued.connected).toBe(true);
      expect(queued.jobs).toMatchObject([{ id: job.id, status: "queued", run_id: null }]);
      await first.close();
      servers.length = 0;

      const second = await serve();
      const after = teamsOverHttp(second);
      const waiting = await after.action<TeamDetails>("get", { team_id: team.id });
      // Nobody acted on the team in this process: it has no caller's handle.
      expect(waiting.connected).toBe(false);
      expect(waiting.jobs).toMatchObject([{ id: job.id, status: "queued", run_id: null }]);
      // The peer is gone: its lease, seen from past its expiry, is taken and given up.
      const expired = new ServiceLease(after.service().store, () => Date.now() + 20 * MINUTE);
      expect(await expired.acquire()).toBe(true);
      await expired.release();

      const { team: done, job: finished } = await after.finishedJob(team.id, job.id);
      expect(finished).toMatchObject({
        status: "completed",
        result: "Author finished the report.",
      });
      expect(done.connected).toBe(false);
      const client = second.client();
      const runs = await client.runs.list(author.thread_id);
      expect(runs.map((r) => [r.run_id, r.status])).toEqual([[finished.run_id, "success"]]);
      const events = await after.runEvents(author.thread_id, String(finished.run_id));
      expect(events.filter((e) => e.event_type === "run.terminal")).toHaveLength(1);
      const row = await second.fawn.stores.runs.get(String(finished.run_id));
      expect(row?.kwargs.origin).toEqual({ kind: "extension", namespace: NAMESPACE });

      const artifactId = identity(team.id, "report");
      const v1 = done.artifacts.find((a) => a.artifact_id === artifactId && a.version === 1);
      expect(v1).toMatchObject({ status: "ready", size: Buffer.byteLength(DRAFT) });
      const output = await after.threadFile(author.thread_id, OUTPUTS_REPORT);
      expect(output?.toString("utf8")).toBe(DRAFT);
      expect(await after.artifactBytes(team.id, artifactId, 1)).toEqual(output);
    },
    TEST_TIMEOUT_MS,
  );
});
