import { randomUUID } from "node:crypto";
import { type Clock, isoNow, systemClock } from "../core/clock.js";
import { ConflictError } from "../core/errors.js";
import type { ApiTokenRecord, UserStore } from "../ports/user-store.js";
import { newSecret, sha256Hex } from "./secrets.js";

export const API_TOKEN_PREFIX = "fawn_";
/** `fawn_` + 32 random bytes in base64url. */
const API_TOKEN_SHAPE = /^fawn_[A-Za-z0-9_-]{43}$/;
/** Enough to tell tokens apart in a list; 6 random characters are useless to an attacker. */
const SHOWN_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6;
const MAX_TOKENS_PER_USER = 100;

/** A token as listed: never the secret or its hash. */
export interface PublicApiToken {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
}

export function publicApiToken(token: ApiTokenRecord): PublicApiToken {
  return { id: token.id, name: token.name, prefix: token.prefix, created_at: token.created_at };
}

export function looksLikeApiToken(value: string): boolean {
  return value.startsWith(API_TOKEN_PREFIX);
}

/** Personal API tokens for programs: shown once at creation, stored hashed, revocable. */
export class ApiTokenService {
  constructor(
    private readonly store: UserStore,
    private readonly clock: Clock = systemClock,
  ) {}

  async create(userId: string, name: string): Promise<{ token: string; record: PublicApiToken }> {
    // A cap keeps one account from growing the table without bound.
    if ((await this.store.listApiTokens(userId)).length >= MAX_TOKENS_PER_USER) {
      throw new ConflictError(
        `A user can hold at most ${MAX_TOKENS_PER_USER} API tokens; revoke one first.`,
      );
    }
    const token = `${API_TOKEN_PREFIX}${await newSecret()}`;
    const record: ApiTokenRecord = {
      id: randomUUID(),
      user_id: userId,
      name,
      prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
      token_hash: await sha256Hex(token),
      created_at: isoNow(this.clock),
    };
    await this.store.createApiToken(record);
    return { token, record: publicApiToken(record) };
  }

  /** The id of the token's user, or null for an unknown or revoked token. */
  async resolve(token: string): Promise<string | null> {
    if (!API_TOKEN_SHAPE.test(token)) return null;
    const record = await this.store.getApiTokenByHash(await sha256Hex(token));
    return record?.user_id ?? null;
  }

  async list(userId: string): Promise<PublicApiToken[]> {
    return (await this.store.listApiTokens(userId)).map(publicApiToken);
  }

  revoke(userId: string, id: string): Promise<boolean> {
    return this.store.deleteApiToken(userId, id);
  }
}
