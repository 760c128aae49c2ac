import { randomUUID } from "node:crypto";
import { type Clock, isoNow, systemClock } from "../core/clock.js";
import { ConflictError, FawnError, NotFoundError } from "../core/errors.js";
import type { UserRecord, UserStore } from "../ports/user-store.js";
import {
  acceptEmail,
  acceptPassword,
  MAX_PASSWORD_LENGTH,
  normalizeEmail,
} from "./credentials-policy.js";
import type { PasswordHasher } from "./password-hasher.js";
import { newSecret } from "./secrets.js";

/** What a user may see of an account (never the hash or the token version). */
export interface PublicUser {
  id: string;
  email: string;
  created_at: string;
}

export function publicUser(user: UserRecord): PublicUser {
  return { id: user.id, email: user.email, created_at: user.created_at };
}

export class RegistrationClosedError extends FawnError {
  constructor() {
    super("forbidden", "Registration is closed; ask an administrator to run `fawn user add`.");
  }
}

/** Accounts: creation, password checks and password changes. No HTTP, no sessions. */
export class AccountService {
  private decoyHash: Promise<string> | null = null;

  constructor(
    private readonly store: UserStore,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Self-service sign-up: open when `allowRegistration`, otherwise only for the very first user
   * (so a fresh install can be claimed without the CLI).
   */
  async register(email: string, password: string, allowRegistration: boolean): Promise<UserRecord> {
    const normalized = acceptEmail(email);
    acceptPassword(password);
    // Cheap early answer; the atomic `onlyIfNoUsers` insert below settles any race.
    if (!allowRegistration && (await this.store.countUsers()) > 0) {
      throw new RegistrationClosedError();
    }
    return this.insert(normalized, password, !allowRegistration);
  }

  /**
   * The first account of a fresh install (the reference's "initialize"): null once any account
   * exists, decided atomically with the insert.
   */
  async createFirstAccount(email: string, password: string): Promise<UserRecord | null> {
    const normalized = acceptEmail(email);
    acceptPassword(password);
    if ((await this.store.countUsers()) > 0) return null;
    try {
      return await this.insert(normalized, password, true);
    } catch (error) {
      if (error instanceof RegistrationClosedError) return null;
      throw error;
    }
  }

  /** An administrator's `fawn user add`: always allowed. */
  addUser(email: string, password: string): Promise<UserRecord> {
    const normalized = acceptEmail(email);
    acceptPassword(password);
    return this.insert(normalized, password, false);
  }

  /** The user when the password is right, else null; takes as long for an unknown email. */
  async verifyLogin(email: string, password: string): Promise<UserRecord | null> {
    if (password.length > MAX_PASSWORD_LENGTH * 4) return null;
    const user = await this.store.getUserByEmail(normalizeEmail(email));
    if (user === null) {
      // Hash anyway, so response time does not reveal which emails have accounts.
      await this.hasher.verify(password, await this.decoy());
      return null;
    }
    return (await this.hasher.verify(password, user.password_hash)) ? user : null;
  }

  /** Replace a password; every session of the user ends (API tokens stay valid). */
  async setPassword(email: string, password: string): Promise<UserRecord> {
    acceptPassword(password);
    const user = await this.findByEmail(email);
    const updated = await this.store.setPasswordHash(user.id, await this.hasher.hash(password));
    if (updated === null) throw new NotFoundError("No user with this email.");
    return updated;
  }

  /**
   * A signed-in user's own change: null when `currentPassword` is wrong (nothing changes);
   * otherwise the new hash is stored and every session of the user ends.
   */
  async changePassword(
    userId: string,
    currentPassword: string,
    newPassword: string,
  ): Promise<UserRecord | null> {
    acceptPassword(newPassword);
    const user = await this.store.getUserById(userId);
    if (user === null) throw new NotFoundError("This account no longer exists.");
    const right =
      currentPassword.length <= MAX_PASSWORD_LENGTH * 4 &&
      (await this.hasher.verify(currentPassword, user.password_hash));
    if (!right) return null;
    const updated = await this.store.setPasswordHash(user.id, await this.hasher.hash(newPassword));
    if (updated === null) throw new NotFoundError("This account no longer exists.");
    return updated;
  }

  getUser(id: string): Promise<UserRecord | null> {
    return this.store.getUserById(id);
  }

  async findByEmail(email: string): Promise<UserRecord> {
    const user = await this.store.getUserByEmail(normalizeEmail(email));
    if (user === null) throw new NotFoundError("No user with this email.");
    return user;
  }

  private async insert(
    email: string,
    password: string,
    onlyIfNoUsers: boolean,
  ): Promise<UserRecord> {
    const result = await this.store.createUser(
      {
        id: randomUUID(),
        email,
        password_hash: await this.hasher.hash(password),
        created_at: isoNow(this.clock),
      },
      { onlyIfNoUsers },
    );
    if (result.created) return result.user;
    if (result.reason === "email_taken") {
      throw new ConflictError("An account with this email already exists.");
    }
    throw new RegistrationClosedError();
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= newSecret().then((secret) => this.hasher.hash(secret));
    return this.decoyHash;
  }
}
