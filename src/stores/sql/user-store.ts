import { type Selectable, sql } from "kysely";
import type {
  ApiTokenRecord,
  CreateUserResult,
  NewUser,
  SessionRecord,
  UserRecord,
  UserStore,
} from "../../ports/user-store.js";
import { fromDbTimestamp, toDbTimestamp, toNumber } from "./codec.js";
import type { SqlExecutor } from "./database.js";
import type { ApiTokensTable, AuthSessionsTable, UsersTable } from "./schema.js";
import { SqlStore } from "./sql-store.js";

/** Advisory lock class for "first user" registration (PostgreSQL; SQLite's BEGIN IMMEDIATE suffices). */
const FIRST_USER_LOCK_CLASS = 0x46_41_57_10;

function userFromDb(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    email: row.email,
    password_hash: row.password_hash,
    token_version: toNumber(row.token_version),
    created_at: fromDbTimestamp(row.created_at),
  };
}

function sessionFromDb(row: Selectable<AuthSessionsTable>): SessionRecord {
  return {
    token_hash: row.token_hash,
    user_id: row.user_id,
    token_version: toNumber(row.token_version),
    created_at: fromDbTimestamp(row.created_at),
    expires_at: fromDbTimestamp(row.expires_at),
  };
}

function tokenFromDb(row: Selectable<ApiTokensTable>): ApiTokenRecord {
  return { ...row, created_at: fromDbTimestamp(row.created_at) };
}

/** Users, sessions and API tokens in the Fawn database (SQLite or PostgreSQL). */
export class SqlUserStore extends SqlStore implements UserStore {
  createUser(user: NewUser, options: { onlyIfNoUsers?: boolean } = {}): Promise<CreateUserResult> {
    return this.wrap("create a user", () => {
      if (!options.onlyIfNoUsers) return this.insertUser(this.db, user);
      return this.database.transaction(async (trx) => {
        if (this.database.dialect === "postgres") {
          await sql`select pg_advisory_xact_lock(${FIRST_USER_LOCK_CLASS}, 0)`.execute(trx);
        }
        const existing = await trx.selectFrom("users").select("id").limit(1).executeTakeFirst();
        if (existing !== undefined) return { created: false, reason: "not_first" } as const;
        return this.insertUser(trx, user);
      });
    });
  }

  private async insertUser(db: SqlExecutor, user: NewUser): Promise<CreateUserResult> {
    const inserted = await db
      .insertInto("users")
      .values({
        ...user,
        token_version: 0,
        created_at: toDbTimestamp(user.created_at, "created_at"),
      })
      .onConflict((oc) => oc.column("email").doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted === undefined
      ? { created: false, reason: "email_taken" }
      : { created: true, user: userFromDb(inserted) };
  }

  getUserById(id: string): Promise<UserRecord | null> {
    return this.wrap("read a user", async () => {
      const row = await this.db
        .selectFrom("users")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row === undefined ? null : userFromDb(row);
    });
  }

  getUserByEmail(email: string): Promise<UserRecord | null> {
    return this.wrap("read a user", async () => {
      const row = await this.db
        .selectFrom("users")
        .selectAll()
        .where("email", "=", email)
        .executeTakeFirst();
      return row === undefined ? null : userFromDb(row);
    });
  }

  countUsers(): Promise<number> {
    return this.wrap("count users", async () => {
      const row = await this.db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return toNumber(row.n);
    });
  }

  setPasswordHash(userId: string, passwordHash: string): Promise<UserRecord | null> {
    return this.wrap("change a password", async () => {
      const row = await this.db
        .updateTable("users")
        .set((eb) => ({ password_hash: passwordHash, token_version: eb("token_version", "+", 1) }))
        .where("id", "=", userId)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? null : userFromDb(row);
    });
  }

  createSession(session: SessionRecord): Promise<void> {
    return this.wrap("create a session", async () => {
      await this.db
        .insertInto("auth_sessions")
        .values({
          ...session,
          created_at: toDbTimestamp(session.created_at, "created_at"),
          expires_at: toDbTimestamp(session.expires_at, "expires_at"),
        })
        .execute();
    });
  }

  getSession(tokenHash: string): Promise<SessionRecord | null> {
    return this.wrap("read a session", async () => {
      const row = await this.db
        .selectFrom("auth_sessions")
        .selectAll()
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
      return row === undefined ? null : sessionFromDb(row);
    });
  }

  deleteSession(tokenHash: string): Promise<boolean> {
    return this.wrap("end a session", async () => {
      const result = await this.db
        .deleteFrom("auth_sessions")
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    });
  }

  deleteExpiredSessions(now: string): Promise<number> {
    return this.wrap("remove expired sessions", async () => {
      const result = await this.db
        .deleteFrom("auth_sessions")
        .where("expires_at", "<=", toDbTimestamp(now, "now"))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  createApiToken(token: ApiTokenRecord): Promise<void> {
    return this.wrap("create an API token", async () => {
      await this.db
        .insertInto("api_tokens")
        .values({ ...token, created_at: toDbTimestamp(token.created_at, "created_at") })
        .execute();
    });
  }

  getApiTokenByHash(tokenHash: string): Promise<ApiTokenRecord | null> {
    return this.wrap("read an API token", async () => {
      const row = await this.db
        .selectFrom("api_tokens")
        .selectAll()
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
      return row === undefined ? null : tokenFromDb(row);
    });
  }

  listApiTokens(userId: string): Promise<ApiTokenRecord[]> {
    return this.wrap("list API tokens", async () => {
      const rows = await this.db
        .selectFrom("api_tokens")
        .selectAll()
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(tokenFromDb);
    });
  }

  deleteApiToken(userId: string, id: string): Promise<boolean> {
    return this.wrap("revoke an API token", async () => {
      const result = await this.db
        .deleteFrom("api_tokens")
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    });
  }
}
