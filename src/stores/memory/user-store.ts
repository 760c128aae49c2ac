import type {
  ApiTokenRecord,
  CreateUserResult,
  NewUser,
  SessionRecord,
  UserRecord,
  UserStore,
} from "../../ports/user-store.js";

/** Users, sessions and API tokens in process memory (tests, `database.url: memory:`). */
export class MemoryUserStore implements UserStore {
  private readonly users = new Map<string, UserRecord>();
  private readonly userIdByEmail = new Map<string, string>();
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly tokens = new Map<string, ApiTokenRecord>();

  // Every method is synchronous inside, so each one is atomic on the event loop.
  async createUser(
    user: NewUser,
    options: { onlyIfNoUsers?: boolean } = {},
  ): Promise<CreateUserResult> {
    if (options.onlyIfNoUsers && this.users.size > 0)
      return { created: false, reason: "not_first" };
    if (this.userIdByEmail.has(user.email)) return { created: false, reason: "email_taken" };
    const record: UserRecord = { ...user, token_version: 0 };
    this.users.set(record.id, record);
    this.userIdByEmail.set(record.email, record.id);
    return { created: true, user: { ...record } };
  }

  async getUserById(id: string): Promise<UserRecord | null> {
    const user = this.users.get(id);
    return user ? { ...user } : null;
  }

  async getUserByEmail(email: string): Promise<UserRecord | null> {
    const id = this.userIdByEmail.get(email);
    return id === undefined ? null : this.getUserById(id);
  }

  async countUsers(): Promise<number> {
    return this.users.size;
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<UserRecord | null> {
    const user = this.users.get(userId);
    if (!user) return null;
    user.password_hash = passwordHash;
    user.token_version++;
    return { ...user };
  }

  async createSession(session: SessionRecord): Promise<void> {
    this.sessions.set(session.token_hash, { ...session });
  }

  async getSession(tokenHash: string): Promise<SessionRecord | null> {
    const session = this.sessions.get(tokenHash);
    return session ? { ...session } : null;
  }

  async deleteSession(tokenHash: string): Promise<boolean> {
    return this.sessions.delete(tokenHash);
  }

  async deleteExpiredSessions(now: string): Promise<number> {
    const cutoff = Date.parse(now);
    let removed = 0;
    for (const [hash, session] of this.sessions) {
      if (Date.parse(session.expires_at) <= cutoff) {
        this.sessions.delete(hash);
        removed++;
      }
    }
    return removed;
  }

  async createApiToken(token: ApiTokenRecord): Promise<void> {
    this.tokens.set(token.token_hash, { ...token });
  }

  async getApiTokenByHash(tokenHash: string): Promise<ApiTokenRecord | null> {
    const token = this.tokens.get(tokenHash);
    return token ? { ...token } : null;
  }

  async listApiTokens(userId: string): Promise<ApiTokenRecord[]> {
    return [...this.tokens.values()]
      .filter((token) => token.user_id === userId)
      .sort(
        (a, b) =>
          Date.parse(a.created_at) - Date.parse(b.created_at) ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      )
      .map((token) => ({ ...token }));
  }

  async deleteApiToken(userId: string, id: string): Promise<boolean> {
    for (const [hash, token] of this.tokens) {
      if (token.id === id && token.user_id === userId) return this.tokens.delete(hash);
    }
    return false;
  }

  async close(): Promise<void> {}
}
