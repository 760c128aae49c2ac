/**
 * Agent teams across two real `fawn serve` processes over one PostgreSQL database (the host's
 * database holds the teams, their lease, the runs and their events):
 * 1. jobs sent through either server each run exactly once, all ticked by the lease holder;
 * 2. a holder SIGKILLed inside an artifact import (parked there by a fixture wrapping the real
 *    plugin; before the host's copy, or after it with the receipt unsaved) leaves nothing stuck:
 *    the peer takes the lease over once it expired and finishes the job, whose run exists once
 *    and whose imported file is whole and alone (a repeated import of the same bytes is the same
 *    file).
 * The model is the offline demo model (no `models:` configured), which answers at once.
 */
import { createHash } from "node:crypto";
import { access, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type ServeProcess, startFawnServe } from "../helpers/fawn-serve-process.js";
import { createPostgresTestDatabase, type PostgresTestDatabase } from "../helpers/postgres.js";

const FIXTURE = new URL("../fixtures/plugins/agent-teams-park-imports.ts", import.meta.url)
  .pathname;
const NS = "community.agent-teams";
const LEASE_SECONDS = 2;

const onceDb = await createPostgresTestDatabase("teams_two_once");
const crashDb = await createPostgresTestDatabase("teams_two_crash");
const copiedDb = await createPostgresTestDatabase("teams_two_copied");
const enabled = onceDb !== null && crashDb !== null && copiedDb !== null;

const servers: ServeProcess[] = [];
const homes: string[] = [];

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
  }
  await onceDb?.drop();
  await crashDb?.drop();
  await copiedDb?.drop();
  for (const home of homes) await rm(home, { recursive: true, force: true });
});

/** A `fawn serve` with only the teams fixture plugin, its own home and config file. */
async function serve(
  db: PostgresTestDatabase,
  teams: Record<string, unknown>,
  sharedHome: string | null = null,
) {
  const home = sharedHome ?? (await mkdtemp(join(tmpdir(), "fawn-teams-two-")));
  homes.push(home);
  const configPath = join(await mkdtemp(join(home, "config-")), "config.yaml");
  // JSON is YAML.
  await writeFile(
    configPath,
    JSON.stringify({ plugins: [{ use: FIXTURE, required: true, config: teams }] }),
  );
  const server = await startFawnServe(home, {
    FAWN_CONFIG: configPath,
    FAWN_DATABASE_URL: db.url,
  });
  servers.push(server);
  return { server, home };
}

async function action(server: ServeProcess, name: string, payload: Record<string, unknown>) {
  const response = await fetch(`${server.apiUrl}/extensions/${NS}/actions/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) {
    throw new Error(`${name} → ${response.status} ${JSON.stringify(body)}\n${server.stderr()}`);
  }
  return body;
}

interface JobView {
  id: string;
  status: string;
  error: string | null;
}
interface TeamView {
  id: string;
  members: Array<{ id: string; name: string; thread_id: string }>;
  jobs: JobView[];
}

async function getTeam(server: ServeProcess, teamId: string): Promise<TeamView> {
  return (await action(server, "get", { team_id: teamId, limit: 200 })) as unknown as TeamView;
}

/** Polls `get` until `done` holds, bounded. */
async function waitFor(
  server: ServeProcess,
  teamId: string,
  done: (team: TeamView) => boolean,
  what: string,
  timeoutMs = 90_000,
): Promise<TeamView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const team = await getTeam(server, teamId);
    if (done(team)) return team;
    if (Date.now() > until) {
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(team.jobs)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function query<R extends pg.QueryResultRow>(
  db: PostgresTestDatabase,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The host runs admitted for a job, with their count of `run.terminal` events. */
async function runsOfJob(db: PostgresTestDatabase, jobId: string) {
  return query<{
    run_id: string;
    status: string;
    owner_worker_id: string | null;
    terminals: string;
  }>(
    db,
    `select r.run_id, r.status, r.owner_worker_id,
            (select count(*) from run_events e
              where e.run_id = r.run_id and e.event_type = 'run.terminal') as terminals
       from runs r where r.idempotency_key = $1`,
    [`extension:${NS}:${jobId}`],
  );
}

const MEMBERS = [
  { name: "ana", agent: "lead_agent" },
  { name: "bo", agent: "lead_agent" },
];

describe.skipIf(!enabled)("agent teams on two fawn serve processes over PostgreSQL", () => {
  it("runs every job exactly once, all ticked by the one lease holder", async () => {
    if (onceDb === null) throw new Error("no database");
    // A lease comfortably longer than a tick: no takeover while both live.
    const config = { enabled: true, lease_seconds: 20 };
    const [{ server: a }, { server: b }] = await Promise.all([
      serve(onceDb, config),
      serve(onceDb, config),
    ]);
    const team = (await action(a, "create", {
      request_id: "team-once",
      name: "Once",
      goal: "Answer every request once.",
      members: MEMBERS,
    })) as unknown as TeamView;
    const jobIds: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const via = i % 2 === 0 ? a : b;
      const member = team.members[i % team.members.length];
      if (member === undefined) throw new Error("no member");
      const sent = await action(via, "send", {
        team_id: team.id,
        member_id: member.id,
        text: `Request number ${i}.`,
        request_id: `req-${i}`,
      });
      jobIds.push(String(sent.id));
    }
    expect(new Set(jobIds).size).toBe(4);

    const done = await waitFor(
      b,
      team.id,
      (t) => t.jobs.every((j) => ["completed", "failed", "cancelled"].includes(j.status)),
      "every job to finish",
    );
    expect(done.jobs.map((j) => [j.id, j.status, j.error])).toEqual(
      jobIds.map((id) => [id, "completed", null]),
    );

    const workers = new Set<string | null>();
    for (const jobId of jobIds) {
      const runs = await runsOfJob(onceDb, jobId);
      expect(runs, `runs of job ${jobId}`).toHaveLength(1);
      expect(runs[0]?.status).toBe("success");
      expect(Number(runs[0]?.terminals)).toBe(1);
      workers.add(runs[0]?.owner_worker_id ?? null);
    }
    // Only the lease holder admits, and it never lost the lease: one process ran them all.
    expect(workers.size).toBe(1);
    expect([...workers][0]).not.toBeNull();
    const lease = await query<{ holder: string }>(onceDb, "select holder from agent_teams_lease");
    expect(lease).toHaveLength(1);
  }, 180_000);

  it.each([
    { when: "before the host's copy began", afterCopy: false, db: crashDb },
    { when: "after the copy, before its receipt was saved", afterCopy: true, db: copiedDb },
  ])(
    "finishes a job whose ticking process was SIGKILLed in an import $when",
    async (mode) => {
      const crashDb = mode.db;
      if (crashDb === null) throw new Error("no database");
      const marker = join(await mkdtemp(join(tmpdir(), "fawn-teams-marker-")), "parked.json");
      homes.push(join(marker, ".."));
      const base = { enabled: true, lease_seconds: LEASE_SECONDS };
      // The doomed process starts alone, so it is the one holding the lease.
      // After the copy, the peer must see the dead process's file: both share one home then (as
      // processes sharing a volume do), each with its own config.
      const shared = mode.afterCopy ? await mkdtemp(join(tmpdir(), "fawn-teams-shared-")) : null;
      const { server: doomed } = await serve(
        crashDb,
        { ...base, park_imports_marker: marker, park_imports_after_copy: mode.afterCopy },
        shared,
      );
      const team = (await action(doomed, "create", {
        request_id: "team-crash",
        name: "Crash",
        goal: "Hand a file over.",
        members: MEMBERS,
      })) as unknown as TeamView;
      const [ana, bo] = team.members;
      if (ana === undefined || bo === undefined) throw new Error("no members");

      // A ready artifact of ana's, seeded as the completing pass stores one (document + bytes).
      const content = Buffer.from(
        Array.from({ length: 4000 }, (_, i) => `line ${i} of the hand-over notes\n`).join(""),
      );
      const digest = createHash("sha256").update(content).digest("hex");
      await seedArtifact(
        crashDb,
        team.id,
        {
          artifact_id: "notes",
          version: 1,
          name: "notes.txt",
          path: "/mnt/user-data/outputs/notes.txt",
          status: "ready",
          error: null,
          sha256: digest,
          size: content.length,
          request_id: "seed",
          registration: "seed",
          source: { run_id: "seed", job_id: "seed", member_id: ana.id, thread_id: ana.thread_id },
          created_at: new Date().toISOString(),
        },
        content,
      );

      const sent = await action(doomed, "send", {
        team_id: team.id,
        member_id: bo.id,
        text: "Read the attached notes and summarise them.",
        request_id: "hand-over",
        artifacts: [{ artifact_id: "notes", version: 1 }],
      });
      const jobId = String(sent.id);
      await waitForFile(marker, doomed);
      expect(JSON.parse(await readFile(marker, "utf8"))).toEqual({
        threadId: bo.thread_id,
        filename: "notes.txt",
      });

      // The peer starts while the holder is parked (still renewing its lease), then the holder dies.
      const { server: peer, home: peerHome } = await serve(crashDb, base, shared);
      // Several lease lifetimes pass: the parked holder keeps renewing, so the peer never steps in.
      await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_SECONDS * 1000));
      const before = await getTeam(peer, team.id);
      expect(before.jobs.find((j) => j.id === jobId)?.status).toBe("queued");
      expect(await runsOfJob(crashDb, jobId)).toEqual([]);
      if (mode.afterCopy) {
        // The dead holder's copy is there, whole (the host writes it atomically).
        const uploads = await uploadsDir(peerHome, bo.thread_id);
        expect(Buffer.compare(await readFile(join(uploads, "notes.txt")), content)).toBe(0);
      } else {
        await expect(uploadsDir(peerHome, bo.thread_id)).rejects.toThrow(/no uploads folder/);
      }
      doomed.child.kill("SIGKILL");
      await doomed.exited;

      const done = await waitFor(
        peer,
        team.id,
        (t) =>
          t.jobs.some((j) => j.id === jobId && j.status !== "queued" && j.status !== "running"),
        "the hand-over job to finish on the peer",
      );
      expect(done.jobs.find((j) => j.id === jobId)).toMatchObject({
        status: "completed",
        error: null,
      });
      const runs = await runsOfJob(crashDb, jobId);
      expect(runs).toHaveLength(1);
      expect(runs[0]?.status).toBe("success");
      expect(Number(runs[0]?.terminals)).toBe(1);

      // The copy is in bo's uploads on the peer, whole, and nothing else is (no partial file).
      const uploads = await uploadsDir(peerHome, bo.thread_id);
      expect(await readdir(uploads)).toEqual(["notes.txt"]);
      expect(Buffer.compare(await readFile(join(uploads, "notes.txt")), content)).toBe(0);
    },
    180_000,
  );
});

/** Adds `artifact` to the team's document and its bytes beside it, in one transaction. */
async function seedArtifact(
  db: PostgresTestDatabase,
  teamId: string,
  artifact: Record<string, unknown>,
  content: Buffer,
): Promise<void> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query("begin");
    const { rows } = await client.query<{ data: string }>(
      "select data from agent_teams_teams where id = $1 for update",
      [teamId],
    );
    const data = JSON.parse(rows[0]?.data ?? "null") as { artifacts: unknown[] };
    data.artifacts.push(artifact);
    await client.query("update agent_teams_teams set data = $1 where id = $2", [
      JSON.stringify(data),
      teamId,
    ]);
    await client.query(
      "insert into agent_teams_contents (team_id, artifact_id, version, content) values ($1, $2, $3, $4)",
      [teamId, artifact.artifact_id, artifact.version, content],
    );
    await client.query("commit");
  } finally {
    await client.end();
  }
}

async function waitForFile(path: string, server: ServeProcess): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      await access(path);
      return;
    } catch {
      if (Date.now() > until) throw new Error(`never parked in an import:\n${server.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** `<home>/users/<user>/threads/<thread>/user-data/uploads`, whatever the user id is. */
async function uploadsDir(home: string, threadId: string): Promise<string> {
  const users = await readdir(join(home, "users")).catch((): string[] => []);
  for (const user of users) {
    const dir = join(home, "users", user, "threads", threadId, "user-data", "uploads");
    try {
      await access(dir);
      return dir;
    } catch {
      // Not this user's.
    }
  }
  throw new Error(`no uploads folder for thread ${threadId} under ${home}`);
}
