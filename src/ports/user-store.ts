/**
 * The user store contract behind `auth.mode: local`: users, login sessions and personal API
 * tokens. Adapters (memory, SQL) implement it and pass `test/conformance/user-store.ts`.
 *
 * Secrets never reach a store in clear: sessions and API tokens are stored by their SHA-256
 * (`token_hash`), passwords as a self-describing scrypt string. Emails are compared exactly; the
 * account service normalizes them (trim, lower case) before they get here.
 */

export interface UserRecord {
  id: string;
  email: string;
  password_hash: string;
  /** Bumped when the password changes; sessions issued under an older version stop working. */
  token_version: number;
  created_at: string;
}

export type NewUser = Omit<UserRecord, "token_version">;

export type CreateUserResult =
  | { created: true; user: UserRecord }
  /** `email_taken`: another user has this email; `not_first`: `onlyIfNoUsers` and users exist. */
  | { created: false; reason: "email_taken" | "not_first" };

export interface SessionRecord {
  token_hash: string;
  user_id: string;
  /** The user's `token_version` when the session started. */
  token_version: number;
  created_at: string;
  expires_at: string;
}

export interface ApiTokenRecord {
  id: string;
  user_id: string;
  name: string;
  /** The first characters of the token, so a user can tell tokens apart; never enough to use. */
  prefix: string;
  token_hash: string;
  created_at: string;
}

export interface UserStore {
  /**
   * Insert a user. With `onlyIfNoUsers`, the insert happens only while the table is empty, as one
   * atomic step (two racing first registrations cannot both win).
   */
  createUser(user: NewUser, options?: { onlyIfNoUsers?: boolean }): Promise<CreateUserResult>;
  getUserById(id: string): Promise<UserRecord | null>;
  getUserByEmail(email: string): Promise<UserRecord | null>;
  countUsers(): Promise<number>;
  /** Replace the password hash and bump `token_version`; null when the user does not exist. */
  setPasswordHash(userId: string, passwordHash: string): Promise<UserRecord | null>;

  createSession(session: SessionRecord): Promise<void>;
  getSession(tokenHash: string): Promise<SessionRecord | null>;
  /** True when a session was removed. */
  deleteSession(tokenHash: string): Promise<boolean>;
  /** Remove sessions whose `expires_at` is at or before `now`; returns how many. */
  deleteExpiredSessions(now: string): Promise<number>;

  createApiToken(token: ApiTokenRecord): Promise<void>;
  getApiTokenByHash(tokenHash: string): Promise<ApiTokenRecord | null>;
  /** The user's tokens, oldest first. */
  listApiTokens(userId: string): Promise<ApiTokenRecord[]>;
  /** Revoke (delete) one of the user's tokens; false when the user has no token with this id. */
  deleteApiToken(userId: string, id: string): Promise<boolean>;

  close(): Promise<void>;
}
