/** The account, session and API token services over a memory store, with a manual clock. */
import { beforeEach, describe, expect, it } from "vitest";
import { type AuthServices, createAuthServices } from "../../src/auth/auth-services.js";
import { PasswordHasher } from "../../src/auth/password-hasher.js";
import { sha256Hex } from "../../src/auth/secrets.js";
import { csrfTokenFor } from "../../src/auth/sessions.js";
import { ManualClock } from "../../src/core/clock.js";
import { MemoryUserStore } from "../../src/stores/memory/user-store.js";

let clock: ManualClock;
let store: MemoryUserStore;
let auth: AuthServices;

beforeEach(() => {
  clock = new ManualClock("2030-01-01T00:00:00.000Z");
  store = new MemoryUserStore();
  auth = createAuthServices(store, {
    config: { session_ttl_days: 1 },
    hasher: new PasswordHasher({ logN: 14, r: 8, p: 1 }),
    clock,
  });
});

describe("accounts", () => {
  it("lets the first user register while registration is closed, and nobody after", async () => {
    const first = await auth.accounts.register("  Admin@Example.ORG ", "first password", false);
    expect(first.email).toBe("admin@example.org");
    await expect(
      auth.accounts.register("second@example.org", "second password", false),
    ).rejects.toMatchObject({
      code: "forbidden",
      status: 403,
    });
    // The administrator's path stays open.
    expect((await auth.accounts.addUser("second@example.org", "second password")).email).toBe(
      "second@example.org",
    );
  });

  it("refuses a taken email regardless of case, and bad emails or passwords", async () => {
    await auth.accounts.register("a@example.org", "password one", true);
    await expect(
      auth.accounts.register("A@EXAMPLE.org", "password two", true),
    ).rejects.toMatchObject({
      status: 409,
    });
    await expect(
      auth.accounts.register("not-an-email", "password one", true),
    ).rejects.toMatchObject({
      status: 422,
    });
    await expect(auth.accounts.register("b@example.org", "short", true)).rejects.toMatchObject({
      status: 422,
    });
  });

  it("verifies logins with scrypt: right password only, unknown emails get null", async () => {
    const user = await auth.accounts.register("a@example.org", "right password", true);
    expect((await store.getUserById(user.id))?.password_hash).toMatch(/^\$scrypt\$/);
    expect(await auth.accounts.verifyLogin("A@example.org", "right password")).toMatchObject({
      id: user.id,
    });
    expect(await auth.accounts.verifyLogin("a@example.org", "wrong password")).toBeNull();
    expect(await auth.accounts.verifyLogin("nobody@example.org", "right password")).toBeNull();
    expect(await auth.accounts.verifyLogin("a@example.org", "x".repeat(100_000))).toBeNull();
  });

  it("creates the first account once: racing first accounts, exactly one wins", async () => {
    const results = await Promise.all(
      ["a@example.org", "b@example.org", "c@example.org"].map((email) =>
        auth.accounts.createFirstAccount(email, "first password"),
      ),
    );
    expect(results.filter((user) => user !== null)).toHaveLength(1);
    expect(await store.countUsers()).toBe(1);
    expect(await auth.accounts.createFirstAccount("d@example.org", "first password")).toBeNull();
  });

  it("changes a password only with the current one, ending every session", async () => {
    const user = await auth.accounts.register("a@example.org", "old password", true);
    const session = await auth.sessions.start(user);
    expect(await auth.accounts.changePassword(user.id, "not it", "new password")).toBeNull();
    expect(await auth.sessions.resolve(session.token)).not.toBeNull();
    await expect(
      auth.accounts.changePassword(user.id, "old password", "short"),
    ).rejects.toMatchObject({ status: 422 });
    const changed = await auth.accounts.changePassword(user.id, "old password", "new password");
    expect(changed?.token_version).toBe(user.token_version + 1);
    expect(await auth.sessions.resolve(session.token)).toBeNull();
    expect(await auth.accounts.verifyLogin("a@example.org", "new password")).not.toBeNull();
  });
});

describe("sessions", () => {
  it("resolves a session until it expires, and stores only its hash", async () => {
    const user = await auth.accounts.register("a@example.org", "right password", true);
    const session = await auth.sessions.start(user);
    expect(session.expiresAt).toBe("2030-01-02T00:00:00.000Z");
    expect(session.csrfToken).toBe(await csrfTokenFor(session.token));
    expect(await store.getSession(session.token)).toBeNull();
    expect(await store.getSession(await sha256Hex(session.token))).not.toBeNull();
    expect(await auth.sessions.resolve(session.token)).toMatchObject({ id: user.id });
    clock.advance(24 * 60 * 60 * 1000);
    expect(await auth.sessions.resolve(session.token)).toBeNull();
    // An expired session is removed when seen.
    expect(await store.getSession(await sha256Hex(session.token))).toBeNull();
  });

  it("ends a session on logout and all of a user's sessions on a password change", async () => {
    const user = await auth.accounts.register("a@example.org", "right password", true);
    const one = await auth.sessions.start(user);
    const two = await auth.sessions.start(user);
    await auth.sessions.end(one.token);
    expect(await auth.sessions.resolve(one.token)).toBeNull();
    expect(await auth.sessions.resolve(two.token)).not.toBeNull();
    await auth.accounts.setPassword("a@example.org", "a new password");
    expect(await auth.sessions.resolve(two.token)).toBeNull();
    expect(await auth.accounts.verifyLogin("a@example.org", "right password")).toBeNull();
    expect(await auth.accounts.verifyLogin("a@example.org", "a new password")).not.toBeNull();
  });

  it("ignores values that are not session tokens", async () => {
    for (const bogus of ["", "x", "a".repeat(10_000), "../../etc/passwd"]) {
      expect(await auth.sessions.resolve(bogus)).toBeNull();
    }
  });
});

describe("API tokens", () => {
  it("shows a token once, stores its hash, lists a prefix only, and revokes", async () => {
    const user = await auth.accounts.register("a@example.org", "right password", true);
    const { token, record } = await auth.tokens.create(user.id, "ci");
    expect(token).toMatch(/^fawn_[A-Za-z0-9_-]{43}$/);
    expect(token.startsWith(record.prefix)).toBe(true);
    expect(record.prefix.length).toBeLessThan(16);
    expect(JSON.stringify(await auth.tokens.list(user.id))).not.toContain(token.slice(12));
    const stored = await store.listApiTokens(user.id);
    expect(stored[0]?.token_hash).toBe(await sha256Hex(token));
    expect(await auth.tokens.resolve(token)).toBe(user.id);
    expect(await auth.tokens.resolve(`${token}x`)).toBeNull();
    expect(await auth.tokens.revoke(user.id, record.id)).toBe(true);
    expect(await auth.tokens.resolve(token)).toBeNull();
  });

  it("survives a password change", async () => {
    const user = await auth.accounts.register("a@example.org", "right password", true);
    const { token } = await auth.tokens.create(user.id, "ci");
    await auth.accounts.setPassword("a@example.org", "a new password");
    expect(await auth.tokens.resolve(token)).toBe(user.id);
  });
});
