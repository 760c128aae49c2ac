/**
 * The UserStore contract as executable spec, shared by every adapter (memory, SQLite, PostgreSQL).
 * `makeStore` must hand out a store with no users: the "first user" rules depend on it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type {
  ApiTokenRecord,
  NewUser,
  SessionRecord,
  UserStore,
} from "../../src/ports/user-store.js";
import { at, newId } from "./run-store.js";

export interface UserStoreFixture {
  store: UserStore;
  /** Defaults to `store.close()`. */
  cleanup?: () => Promise<void>;
}

function newUser(fields: Partial<NewUser> = {}): NewUser {
  const id = newId();
  return {
    id,
    email: `${id}@example.org`,
    password_hash: "$scrypt$ln=14,r=8,p=1$c2FsdA==$aGFzaA==",
    created_at: at(1),
    ...fields,
  };
}

function session(userId: string, fields: Partial<SessionRecord> = {}): SessionRecord {
  return {
    token_hash: newId().replaceAll("-", "").padEnd(64, "0"),
    user_id: userId,
    token_version: 0,
    created_at: at(0),
    expires_at: at(100),
    ...fields,
  };
}

function apiToken(userId: string, fields: Partial<ApiTokenRecord> = {}): ApiTokenRecord {
  return {
    id: newId(),
    user_id: userId,
    name: "ci",
    prefix: "fawn_abcdef",
    token_hash: newId().replaceAll("-", "").padEnd(64, "1"),
    created_at: at(0),
    ...fields,
  };
}

const instant = (value: string | undefined) => (value === undefined ? null : Date.parse(value));

export function describeUserStore(name: string, makeStore: () => Promise<UserStoreFixture>): void {
  describe(`UserStore contract: ${name}`, () => {
    let fixture: UserStoreFixture;
    let store: UserStore;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });

    afterEach(async () => {
      await (fixture.cleanup ? fixture.cleanup() : fixture.store.close());
    });

    async function created(fields: Partial<NewUser> = {}) {
      const result = await store.createUser(newUser(fields));
      if (!result.created) throw new Error(`user not created: ${result.reason}`);
      return result.user;
    }

    describe("users", () => {
      it("creates a user at token version 0 that both lookups return", async () => {
        const input = newUser({ created_at: at(7) });
        const result = await store.createUser(input);
        expect(result.created).toBe(true);
        const user = await store.getUserById(input.id);
        expect(user).toMatchObject({
          id: input.id,
          email: input.email,
          password_hash: input.password_hash,
          token_version: 0,
        });
        expect(instant(user?.created_at)).toBe(instant(at(7)));
        expect(await store.getUserByEmail(input.email)).toEqual(user);
        expect(await store.countUsers()).toBe(1);
      });

      it("answers null for unknown ids and emails", async () => {
        await created();
        expect(await store.getUserById(newId())).toBeNull();
        expect(await store.getUserByEmail("nobody@example.org")).toBeNull();
      });

      it("refuses a second user with the same email and keeps the first", async () => {
        const first = await created({ email: "same@example.org" });
        const second = await store.createUser(newUser({ email: "same@example.org" }));
        expect(second).toEqual({ created: false, reason: "email_taken" });
        expect(await store.getUserByEmail("same@example.org")).toEqual(first);
        expect(await store.countUsers()).toBe(1);
      });

      it("creates with onlyIfNoUsers only while the table is empty", async () => {
        const first = await store.createUser(newUser(), { onlyIfNoUsers: true });
        expect(first.created).toBe(true);
        const second = await store.createUser(newUser(), { onlyIfNoUsers: true });
        expect(second).toEqual({ created: false, reason: "not_first" });
        expect((await store.createUser(newUser())).created).toBe(true);
        expect(await store.countUsers()).toBe(2);
      });

      it("lets exactly one of several racing first users win", async () => {
        const results = await Promise.all(
          Array.from({ length: 6 }, () => store.createUser(newUser(), { onlyIfNoUsers: true })),
        );
        expect(results.filter((result) => result.created)).toHaveLength(1);
        expect(await store.countUsers()).toBe(1);
      });

      it("replaces a password hash and bumps the token version", async () => {
        const user = await created();
        const updated = await store.setPasswordHash(user.id, "$scrypt$new");
        expect(updated).toMatchObject({
          id: user.id,
          password_hash: "$scrypt$new",
          token_version: 1,
        });
        expect((await store.setPasswordHash(user.id, "$scrypt$newer"))?.token_version).toBe(2);
        expect(await store.getUserById(user.id)).toMatchObject({ token_version: 2 });
        expect(await store.setPasswordHash(newId(), "$scrypt$x")).toBeNull();
      });

      it("hands out copies", async () => {
        const user = await created();
        const read = await store.getUserById(user.id);
        if (read === null) throw new Error("user vanished");
        read.email = "changed@example.org";
        read.token_version = 99;
        expect(await store.getUserById(user.id)).toEqual(user);
      });
    });

    describe("sessions", () => {
      it("stores, reads and deletes a session by its hash", async () => {
        const user = await created();
        const record = session(user.id, { token_version: 3 });
        await store.createSession(record);
        const read = await store.getSession(record.token_hash);
        expect(read).toMatchObject({
          token_hash: record.token_hash,
          user_id: user.id,
          token_version: 3,
        });
        expect(instant(read?.expires_at)).toBe(instant(record.expires_at));
        expect(instant(read?.created_at)).toBe(instant(record.created_at));
        expect(await store.deleteSession(record.token_hash)).toBe(true);
        expect(await store.deleteSession(record.token_hash)).toBe(false);
        expect(await store.getSession(record.token_hash)).toBeNull();
      });

      it("removes exactly the sessions expired at a given time", async () => {
        const user = await created();
        const early = session(user.id, { expires_at: at(10) });
        const boundary = session(user.id, { expires_at: at(20) });
        const late = session(user.id, { expires_at: at(30) });
        for (const record of [early, boundary, late]) await store.createSession(record);
        expect(await store.deleteExpiredSessions(at(20))).toBe(2);
        expect(await store.getSession(early.token_hash)).toBeNull();
        expect(await store.getSession(boundary.token_hash)).toBeNull();
        expect(await store.getSession(late.token_hash)).not.toBeNull();
      });
    });

    describe("API tokens", () => {
      it("stores a token, finds it by hash and lists the owner's tokens oldest first", async () => {
        const alice = await created();
        const bob = await created();
        const newer = apiToken(alice.id, { name: "newer", created_at: at(5) });
        const older = apiToken(alice.id, { name: "older", created_at: at(2) });
        const bobs = apiToken(bob.id);
        for (const record of [newer, older, bobs]) await store.createApiToken(record);
        const found = await store.getApiTokenByHash(newer.token_hash);
        expect(found).toMatchObject({
          id: newer.id,
          user_id: alice.id,
          name: "newer",
          prefix: newer.prefix,
          token_hash: newer.token_hash,
        });
        expect(instant(found?.created_at)).toBe(instant(newer.created_at));
        expect((await store.listApiTokens(alice.id)).map((t) => t.name)).toEqual([
          "older",
          "newer",
        ]);
        expect((await store.listApiTokens(bob.id)).map((t) => t.id)).toEqual([bobs.id]);
        expect(await store.getApiTokenByHash("0".repeat(64))).toBeNull();
      });

      it("revokes only the owner's token", async () => {
        const alice = await created();
        const bob = await created();
        const record = apiToken(alice.id);
        await store.createApiToken(record);
        expect(await store.deleteApiToken(bob.id, record.id)).toBe(false);
        expect(await store.getApiTokenByHash(record.token_hash)).not.toBeNull();
        expect(await store.deleteApiToken(alice.id, record.id)).toBe(true);
        expect(await store.getApiTokenByHash(record.token_hash)).toBeNull();
        expect(await store.listApiTokens(alice.id)).toEqual([]);
        expect(await store.deleteApiToken(alice.id, record.id)).toBe(false);
      });
    });
  });
}
