import { createHash } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { PluginDatabase } from "../../extensions/api/index.js";
import { isTerminal, type Team } from "./model.js";

/*
 * Teams on SQL (SQLite or PostgreSQL, one code path): a row per team holding its JSON document,
 * artifact bytes in their own table, and the service lease. Every write of a team is a
 * read-modify-write in one transaction (SQLite BEGIN IMMEDIATE through the host's driver; a row
 * lock on PostgreSQL).
 */

export const MAX_TEAMS_PER_OWNER = 20;

type TeamRow = {
  id: string;
  owner: string;
  data: string;
  /** 1 while any job is not terminal: what the tick walks. */
  active: number;
  created_at: string;
};

type ContentRow = {
  team_id: string;
  artifact_id: string;
  version: number;
  content: Uint8Array;
};

type LeaseRow = {
  name: string;
  holder: string;
  expires_at: number;
};

// Type aliases, not interfaces: Kysely's `withTables` wants index-compatible row types.
type Tables = {
  agent_teams_teams: TeamRow;
  agent_teams_contents: ContentRow;
  agent_teams_lease: LeaseRow;
};

export type TeamsDb = Kysely<Record<string, never> & Tables>;

/** A blob to write in the same transaction as a team change. */
export interface ContentWrite {
  artifactId: string;
  version: number;
  content: Uint8Array;
}

export class TeamsStore {
  constructor(readonly database: PluginDatabase) {}

  get db(): TeamsDb {
    return this.database.db.withTables<Tables>();
  }

  /** Creates the tables when missing (idempotent; concurrent openers may race on PostgreSQL). */
  async migrate(): Promise<void> {
    const blob = this.database.dialect === "postgres" ? "bytea" : "blob";
    const big = this.database.dialect === "postgres" ? "bigint" : "integer";
    const teams = "agent_teams_teams";
    const contents = "agent_teams_contents";
    const lease = "agent_teams_lease";
    const create = async (): Promise<void> => {
      await this.db.schema
        .createTable(teams)
        .ifNotExists()
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("owner", "text", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("active", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await this.db.schema
        .createIndex(`${teams}_owner`)
        .ifNotExists()
        .on(teams)
        .columns(["owner", "created_at"])
        .execute();
      await this.db.schema
        .createTable(contents)
        .ifNotExists()
        .addColumn("team_id", "text", (c) => c.notNull())
        .addColumn("artifact_id", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("content", sql.raw(blob), (c) => c.notNull())
        .addPrimaryKeyConstraint(`${contents}_pk`, ["team_id", "artifact_id", "version"])
        .execute();
      await this.db.schema
        .createTable(lease)
        .ifNotExists()
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("holder", "text", (c) => c.notNull())
        .addColumn("expires_at", sql.raw(big), (c) => c.notNull())
        .execute();
    };
    try {
      await create();
    } catch {
      // Another process created them between our IF NOT EXISTS checks; once more settles it.
      await create();
    }
  }

  /** The owner's teams, newest first. */
  async list(owner: string): Promise<Team[]> {
    const rows = await this.db
      .selectFrom("agent_teams_teams")
      .select(["data"])
      .where("owner", "=", owner)
      .orderBy("created_at", "desc")
      .execute();
    return rows.map((row) => decode(row.data));
  }

  async get(owner: string, teamId: string): Promise<Team> {
    const row = await this.db
      .selectFrom("agent_teams_teams")
      .select(["data"])
      .where("id", "=", teamId)
      .where("owner", "=", owner)
      .executeTakeFirst();
    if (row === undefined) throw new Error("Team unavailable: no such team for this user.");
    return decode(row.data);
  }

  /** Inserts `team`, or returns the owner's existing team of that id. */
  async create(owner: string, team: Team): Promise<Team> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom("agent_teams_teams")
        .select(["owner", "data"])
        .where("id", "=", team.id)
        .executeTakeFirst();
      if (existing !== undefined) {
        if (existing.owner !== owner) throw new Error("Team unavailable: the id is taken.");
        return decode(existing.data);
      }
      const count = await trx
        .selectFrom("agent_teams_teams")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("owner", "=", owner)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_TEAMS_PER_OWNER) {
        throw new Error(`Team limit reached: at most ${MAX_TEAMS_PER_OWNER} teams per user.`);
      }
      await trx
        .insertInto("agent_teams_teams")
        .values({ id: team.id, owner, ...encode(team), created_at: team.created_at })
        .execute();
      return team;
    });
  }

  /**
   * Read-modify-write of one team in one transaction. `update` mutates the team it is given (it
   * must not await the database: the transaction holds the connection) and returns the result;
   * `contents` it returns alongside are written in the same transaction.
   */
  async change<T>(
    owner: string,
    teamId: string,
    update: (team: Team) => T | WithContents<T>,
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom("agent_teams_teams")
        .select(["data"])
        .where("id", "=", teamId)
        .where("owner", "=", owner)
        .$if(this.database.dialect === "postgres", (q) => q.forUpdate())
        .executeTakeFirst();
      if (row === undefined) throw new Error("Team unavailable: no such team for this user.");
      const team = decode(row.data);
      const outcome = update(team);
      const { result, contents } =
        outcome instanceof WithContents ? outcome : { result: outcome, contents: [] };
      for (const write of contents) {
        await trx
          .insertInto("agent_teams_contents")
          .values({
            team_id: teamId,
            artifact_id: write.artifactId,
            version: write.version,
            content: write.content,
          })
          .onConflict((oc) => oc.columns(["team_id", "artifact_id", "version"]).doNothing())
          .execute();
      }
      await trx
        .updateTable("agent_teams_teams")
        .set(encode(team))
        .where("id", "=", teamId)
        .execute();
      return result;
    });
  }

  async delete(owner: string, teamId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom("agent_teams_teams")
        .where("id", "=", teamId)
        .where("owner", "=", owner)
        .execute();
      await trx.deleteFrom("agent_teams_contents").where("team_id", "=", teamId).execute();
    });
  }

  /** A ready artifact version's metadata and bytes; anything else is an error. */
  async artifact(
    owner: string,
    teamId: string,
    artifactId: string,
    version: number,
  ): Promise<{ artifact: Team["artifacts"][number]; content: Uint8Array }> {
    const team = await this.get(owner, teamId);
    const artifact = team.artifacts.find(
      (a) => a.artifact_id === artifactId && a.version === version,
    );
    if (artifact === undefined) throw new Error("Artifact unavailable: no such version.");
    if (artifact.status !== "ready") {
      throw new Error(`Artifact unavailable: version ${version} is ${artifact.status}.`);
    }
    const row = await this.db
      .selectFrom("agent_teams_contents")
      .select(["content"])
      .where("team_id", "=", teamId)
      .where("artifact_id", "=", artifactId)
      .where("version", "=", version)
      .executeTakeFirst();
    if (row === undefined) throw new Error("Artifact unavailable: its content is missing.");
    const content = new Uint8Array(row.content);
    if (artifact.sha256 !== null && sha256(content) !== artifact.sha256) {
      throw new Error("Artifact unavailable: its content does not match its digest.");
    }
    return { artifact, content };
  }

  /** Teams with work left (any owner): what a tick walks. */
  async activeTeams(): Promise<Array<{ owner: string; id: string }>> {
    return this.db
      .selectFrom("agent_teams_teams")
      .select(["owner", "id"])
      .where("active", "=", 1)
      .orderBy("created_at")
      .execute();
  }
}

/** What a `change` update returns when blobs must be written with the team. */
export class WithContents<T> {
  constructor(
    readonly result: T,
    readonly contents: ContentWrite[],
  ) {}
}

function encode(team: Team): { data: string; active: number } {
  return { data: JSON.stringify(team), active: team.jobs.some((j) => !isTerminal(j)) ? 1 : 0 };
}

function decode(data: string): Team {
  const team = JSON.parse(data) as Team;
  team.artifacts ??= [];
  return team;
}

export function sha256(content: Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}
