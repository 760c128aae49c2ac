import type { Clock } from "../core/clock.js";
import type { AuthConfig } from "../core/config/schema.js";
import type { UserStore } from "../ports/user-store.js";
import { AccountService } from "./accounts.js";
import { ApiTokenService } from "./api-tokens.js";
import { PasswordHasher } from "./password-hasher.js";
import { SessionService } from "./sessions.js";

/** Everything `auth.mode: local` needs, over one user store. Shared by the gateway and the CLI. */
export interface AuthServices {
  store: UserStore;
  accounts: AccountService;
  sessions: SessionService;
  tokens: ApiTokenService;
}

export interface AuthServicesOptions {
  config: Pick<AuthConfig, "session_ttl_days">;
  hasher?: PasswordHasher;
  clock?: Clock;
}

export function createAuthServices(store: UserStore, options: AuthServicesOptions): AuthServices {
  const hasher = options.hasher ?? new PasswordHasher();
  const ttlMs = options.config.session_ttl_days * 24 * 60 * 60 * 1000;
  return {
    store,
    accounts: new AccountService(store, hasher, options.clock),
    sessions: new SessionService(store, ttlMs, options.clock),
    tokens: new ApiTokenService(store, options.clock),
  };
}
