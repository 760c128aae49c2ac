/** A real `local` provider with test knobs: a cheap (floor) scrypt cost and a capturing logger. */
import { type AuthServices, createAuthServices } from "../../../src/auth/auth-services.js";
import { PasswordHasher } from "../../../src/auth/password-hasher.js";
import { parseConfig } from "../../../src/core/config/load-config.js";
import type { AuthConfig } from "../../../src/core/config/schema.js";
import type { Logger } from "../../../src/core/logger.js";
import { LocalAuthProvider } from "../../../src/gateway/auth/local-auth-provider.js";
import { MemoryLoginAttemptStore } from "../../../src/stores/memory/login-attempt-store.js";
import { MemoryUserStore } from "../../../src/stores/memory/user-store.js";

/** Every line logged, with its context, as JSON text. */
export class CapturingLogger implements Logger {
  constructor(
    readonly lines: string[] = [],
    private readonly bindings: Record<string, unknown> = {},
  ) {}
  private record(level: string, context: Record<string, unknown>, message: string): void {
    this.lines.push(JSON.stringify({ level, ...this.bindings, ...context, message }));
  }
  debug(context: Record<string, unknown>, message: string): void {
    this.record("debug", context, message);
  }
  info(context: Record<string, unknown>, message: string): void {
    this.record("info", context, message);
  }
  warn(context: Record<string, unknown>, message: string): void {
    this.record("warn", context, message);
  }
  error(context: Record<string, unknown>, message: string): void {
    this.record("error", context, message);
  }
  child(bindings: Record<string, unknown>): Logger {
    return new CapturingLogger(this.lines, { ...this.bindings, ...bindings });
  }
}

export interface TestLocalAuth {
  provider: LocalAuthProvider;
  services: AuthServices;
  logger: CapturingLogger;
}

export function testLocalAuth(auth: Partial<AuthConfig> = {}): TestLocalAuth {
  const config = parseConfig({ auth: { ...auth, mode: "local" } }, { env: {} }).config.auth;
  const services = createAuthServices(new MemoryUserStore(), {
    config,
    hasher: new PasswordHasher({ logN: 14, r: 8, p: 1 }),
  });
  const logger = new CapturingLogger();
  return {
    provider: new LocalAuthProvider({
      services,
      config,
      logger,
      loginAttempts: new MemoryLoginAttemptStore(),
    }),
    services,
    logger,
  };
}
