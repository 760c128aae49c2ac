import { type Clock, systemClock } from "../core/clock.js";
import type { UserRecord, UserStore } from "../ports/user-store.js";
import { newSecret, sha256Hex } from "./secrets.js";

/** A session as handed to the client once: the cookie values and when they expire. */
export interface IssuedSession {
  token: string;
  csrfToken: string;
  expiresAt: string;
}

/** 32 random bytes in base64url: anything else is not one of our session tokens. */
const SESSION_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The CSRF token of a session: derived from the session token, so a `csrf_token` cookie planted
 * by a sibling site (cookie tossing) does not match, and nothing extra needs storing.
 */
export function csrfTokenFor(sessionToken: string): Promise<string> {
  return sha256Hex(`fawn-csrf:${sessionToken}`);
}

/**
 * Login sessions: random opaque tokens stored by their hash, with a fixed expiry. Opaque rather
 * than signed so that logout really ends a session, and no signing key needs managing.
 */
export class SessionService {
  private lastPrune = 0;

  constructor(
    private readonly store: UserStore,
    private readonly ttlMs: number,
    private readonly clock: Clock = systemClock,
  ) {}

  async start(user: UserRecord): Promise<IssuedSession> {
    await this.pruneNowAndThen();
    const token = await newSecret();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.ttlMs).toISOString();
    await this.store.createSession({
      token_hash: await sha256Hex(token),
      user_id: user.id,
      token_version: user.token_version,
      created_at: now.toISOString(),
      expires_at: expiresAt,
    });
    return { token, csrfToken: await csrfTokenFor(token), expiresAt };
  }

  /** The session's user, or null when the token is unknown, expired or from before a reset. */
  async resolve(token: string): Promise<UserRecord | null> {
    if (!SESSION_TOKEN_SHAPE.test(token)) return null;
    const tokenHash = await sha256Hex(token);
    const session = await this.store.getSession(tokenHash);
    if (session === null) return null;
    const user =
      Date.parse(session.expires_at) > this.clock.now().getTime()
        ? await this.store.getUserById(session.user_id)
        : null;
    if (user === null || user.token_version !== session.token_version) {
      await this.store.deleteSession(tokenHash);
      return null;
    }
    return user;
  }

  async end(token: string): Promise<void> {
    if (SESSION_TOKEN_SHAPE.test(token)) await this.store.deleteSession(await sha256Hex(token));
  }

  /** Expired rows are removed on the way (at most hourly), so the table does not grow forever. */
  private async pruneNowAndThen(): Promise<void> {
    const now = this.clock.now();
    if (now.getTime() - this.lastPrune < PRUNE_INTERVAL_MS) return;
    this.lastPrune = now.getTime();
    await this.store.deleteExpiredSessions(now.toISOString());
  }
}
