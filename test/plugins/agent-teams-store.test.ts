/**
 * The agent-teams store and service lease on both SQL engines: owner scoping, atomic
 * read-modify-write under concurrent writers (two connections), artifact content, and the lease a
 * peer takes over once its holder died — after which the peer carries the dead holder's job on.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPluginDatabase } from "../../src/app/plugin-database.js";
import type { PluginDatabase } from "../../src/extensions/api/index.js";
import {
  installAgentTeams,
  ServiceLease,
  type Teams,
  TeamsStore,
  teamsOf,
  teamsSettings,
} from "../../src/plugins/agent-teams/index.js";
import type { Team } from "../../src/plugins/agent-teams/model.js";
import { WithContents } from "../../src/plugins/agent-teams/store.js";
import { createPostgresTestDatabase, type PostgresTestDatabase } from "../helpers/postgres.js";
import { serviceDeps } from "../seeds/fixtures/teams-plugin.js";
import { Runs } from "../seeds/fixtures/teams-runs-fake.js";

const postgres = await createPostgresTestDatabase("agent_teams_store");
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fawn-teams-store-"));
});

afterAll(async () => {
  await postgres?.drop();
  await rm(dir, { recursive: true, force: true });
});

type Engine = {
  name: string;
  open(file: string): Promise<PluginDatabase>;
  config(file: string): Record<string, unknown>;
};

const engines: Engine[] = [
  {
    name: "sqlite",
    open: (file) => openPluginDatabase("memory:", { sqlitePath: join(dir, `${file}.sqlite`) }),
    config: (file) => ({ enabled: true, storage_path: join(dir, `${file}.sqlite`) }),
  },
];
const pg: PostgresTestDatabase | null = postgres;
if (pg !== null) {
  engines.push({
    name: "postgres",
    open: () => openPluginDatabase(pg.url),
    config: () => ({ enabled: true }),
  });
}

function team(id: string, jobs: Team["jobs"] = []): Team {
  return {
    id,
    name: id,
    goal: "g",
    request_id: id,
    members: [],
    messages: [],
    jobs,
    artifacts: [],
    ready: true,
    created_at: new Date().toISOString(),
  };
}

describe.each(engines)("agent-teams store on $name", (engine) => {
  const opened: PluginDatabase[] = [];
  const open = async (file: string): Promise<TeamsStore> => {
    const database = await engine.open(file);
    opened.push(database);
    const store = new TeamsStore(database);
    await store.migrate();
    return store;
  };

  afterEach(async () => {
    Object.assign(teamsSettings, { leaseSeconds: 30 });
    await Promise.all(opened.splice(0).map((d) => d.close()));
  });

  it("scopes teams to their owner and creates idempotently", async () => {
    const store = await open("scoping");
    const id = `t-${Math.random().toString(16).slice(2)}`;
    await store.create("alice", team(id));
    expect((await store.create("alice", { ...team(id), name: "other" })).name).toBe(id);
    await expect(store.get("bob", id)).rejects.toThrow("Team unavailable");
    await expect(store.create("bob", team(id))).rejects.toThrow("Team unavailable");
    expect((await store.list("alice")).map((t) => t.id)).toContain(id);
    expect(await store.list("bob")).toEqual([]);
  });

  it("serializes concurrent read-modify-writes from two connections", async () => {
    const first = await open("concurrent");
    const second = await open("concurrent");
    const id = `c-${Math.random().toString(16).slice(2)}`;
    await first.create("alice", team(id));
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? first : second).change("alice", id, (t) => {
          t.messages.push({
            job_id: String(i),
            member_id: "m",
            status: "completed",
            text: "",
            at: "",
          });
        }),
      ),
    );
    expect((await first.get("alice", id)).messages).toHaveLength(12);
  });

  it("returns artifact bytes only for a ready version", async () => {
    const store = await open("artifacts");
    const id = `a-${Math.random().toString(16).slice(2)}`;
    await store.create("alice", team(id));
    const source = { run_id: "r", job_id: "j", member_id: "m", thread_id: "t" };
    const base = {
      artifact_id: "x",
      version: 1,
      name: "Report",
      path: "/mnt/user-data/outputs/r.txt",
      error: null,
      sha256: null,
      size: null,
      request_id: "q",
      registration: "g",
      source,
      created_at: "",
    };
    await store.change("alice", id, (t) => {
      t.artifacts.push({ ...base, status: "pending" });
    });
    await expect(store.artifact("alice", id, "x", 1)).rejects.toThrow("pending");
    const content = new Uint8Array([0, 255, 1]);
    await store.change("alice", id, (t) => {
      const a = t.artifacts[0];
      if (a !== undefined) a.status = "ready";
      return new WithContents(undefined, [{ artifactId: "x", version: 1, content }]);
    });
    expect((await store.artifact("alice", id, "x", 1)).content).toEqual(content);
    await expect(store.artifact("alice", id, "x", 2)).rejects.toThrow("no such version");
  });

  it("lets a peer take the service lease over only once it expired", async () => {
    const store = await open("lease");
    let clock = Date.now();
    const holder = new ServiceLease(store, () => clock);
    const peer = new ServiceLease(store, () => clock);
    await holder.release();
    await peer.release();
    expect(await holder.acquire()).toBe(true);
    expect(await peer.acquire()).toBe(false);
    expect(await holder.acquire()).toBe(true);
    clock += teamsSettings.leaseSeconds * 1000 + 1;
    expect(await peer.acquire()).toBe(true);
    expect(await holder.acquire()).toBe(false);
    await peer.release();
    expect(await holder.acquire()).toBe(true);
    await holder.release();
  });

  it("a peer carries on the job of a holder that died before saving its admission", async () => {
    // Long enough that no lease lapses by itself, however slow the machine: the test ends it below.
    teamsSettings.leaseSeconds = 60;
    const runs = new Runs();
    const file = "takeover";
    const start = async (): Promise<Teams> => {
      const contributions = installAgentTeams(engine.config(file));
      const teams = teamsOf(contributions);
      if (teams === null) throw new Error("no Teams service");
      const deps = serviceDeps(dir, () => runs);
      deps.openDatabase = async (options) => {
        const database = await (options?.sqlitePath !== undefined
          ? openPluginDatabase("memory:", options)
          : engine.open(file));
        opened.push(database);
        return database;
      };
      await teams.start(deps);
      return teams;
    };
    const dead = await start();
    await new ServiceLease(dead.store).release();
    const created = (await dead.store.create("alice", {
      ...team(`k-${Math.random().toString(16).slice(2)}`),
      members: [{ id: "m1", name: "A", agent: "a", thread_id: "thread-a" }],
    })) as Team;
    await runs.createThread({ threadId: "thread-a" });
    const actions = installAgentTeams(engine.config(file)).actions ?? [];
    expect(actions.length).toBeGreaterThan(0);
    const sendAction = (await import("../../src/plugins/agent-teams/send.js")).sendRequest;
    const job = await sendAction(
      dead,
      "alice",
      { team_id: created.id, member_id: "m1", text: "Go", request_id: "go" },
      null,
      runs,
    );
    // The holder's admission is lost with it: the host admitted, the process died before the ack.
    const admit = runs.start.bind(runs);
    runs.start = async (args) => {
      await admit(args);
      throw Object.assign(new Error("killed"), { code: "ECONNRESET" });
    };
    await dead.tick();
    runs.start = admit;
    expect((await dead.store.get("alice", created.id)).jobs[0]?.run_id).toBeNull();
    const peer = await start();
    await peer.tick();
    expect((await peer.store.get("alice", created.id)).jobs[0]?.run_id).toBeNull();
    // The dead holder never renews: its lease runs out (expired here rather than waited for).
    await peer.store.db.updateTable("agent_teams_lease").set({ expires_at: 0 }).execute();
    await peer.tick();
    const recovered = (await peer.store.get("alice", created.id)).jobs[0];
    expect(recovered?.id).toBe(job.id);
    expect(recovered?.run_id).toBe(job.id);
    expect(recovered?.status).toBe("running");
    expect(runs.starts).toHaveLength(1);
  });
});
