/**
 * The LoginAttemptStore contract as executable spec, shared by every adapter (memory, SQL on
 * SQLite and PostgreSQL, Redis). Times are passed in, so no test sleeps. `makeStore` may hand
 * out a store over shared storage: every test uses keys of its own.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AttemptCounter, LoginAttemptStore } from "../../src/ports/login-attempt-store.js";

export interface LoginAttemptStoreFixture {
  store: LoginAttemptStore;
  /** A second store over the same storage (another process's view), when the adapter shares. */
  peer?: LoginAttemptStore;
  /** Defaults to closing `store` and `peer`. */
  cleanup?: () => Promise<void>;
}

const WINDOW = 60_000;
const T0 = Date.parse("2026-01-01T00:00:00.000Z");

/** A fresh 64-hex key, like the limiter's hashed keys. */
function key(): string {
  return randomUUID().replaceAll("-", "").padEnd(64, "0");
}

export interface LoginAttemptStoreSuiteOptions {
  /** The adapter's storage is shared between processes: `makeStore` hands out a `peer`. */
  shared?: boolean;
}

export function describeLoginAttemptStore(
  name: string,
  makeStore: () => Promise<LoginAttemptStoreFixture>,
  options: LoginAttemptStoreSuiteOptions = {},
): void {
  describe(`LoginAttemptStore contract: ${name}`, () => {
    let fixture: LoginAttemptStoreFixture;
    let store: LoginAttemptStore;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });
    afterEach(async () => {
      if (fixture.cleanup) await fixture.cleanup();
      else await Promise.all([fixture.store.close(), fixture.peer?.close()]);
    });

    const fail = (counters: AttemptCounter[], times: number, now = T0) =>
      Promise.all(Array.from({ length: times }, () => store.take(counters, WINDOW, now)));

    it("lets `limit` failures through, then refuses until the window ends", async () => {
      const counter = { key: key(), limit: 3 };
      for (let i = 0; i < 3; i++) {
        expect(await store.take([counter], WINDOW, T0 + i)).toEqual({ allowed: true });
      }
      expect(await store.take([counter], WINDOW, T0 + 10)).toEqual({
        allowed: false,
        retryAfterSeconds: 60,
      });
      expect(await store.take([counter], WINDOW, T0 + 59_500)).toEqual({
        allowed: false,
        retryAfterSeconds: 1,
      });
      // The window counts from its first failure; once it ends, a new one opens.
      expect(await store.take([counter], WINDOW, T0 + WINDOW)).toEqual({ allowed: true });
      expect(await store.take([counter], WINDOW, T0 + WINDOW + 1)).toEqual({ allowed: true });
    });

    it("refuses when any counter is full, counting nothing on the others", async () => {
      const full = { key: key(), limit: 1 };
      const open = { key: key(), limit: 2 };
      await store.take([full], WINDOW, T0);
      const refused = await store.take([open, full], WINDOW, T0 + 30_000);
      expect(refused).toEqual({ allowed: false, retryAfterSeconds: 30 });
      // `open` was not charged by the refused attempt: it still has both failures left.
      expect(await store.take([open], WINDOW, T0 + 30_000)).toEqual({ allowed: true });
      expect(await store.take([open], WINDOW, T0 + 30_000)).toEqual({ allowed: true });
      expect((await store.take([open], WINDOW, T0 + 30_000)).allowed).toBe(false);
    });

    it("names the latest reset among several full counters", async () => {
      const early = { key: key(), limit: 1 };
      const late = { key: key(), limit: 1 };
      await store.take([early], WINDOW, T0);
      await store.take([late], WINDOW, T0 + 20_000);
      expect(await store.take([early, late], WINDOW, T0 + 30_000)).toEqual({
        allowed: false,
        retryAfterSeconds: 50,
      });
    });

    it("counts concurrent attempts exactly: no more than `limit` get through", async () => {
      const counter = { key: key(), limit: 5 };
      const gates = await fail([counter], 20);
      expect(gates.filter((gate) => gate.allowed)).toHaveLength(5);
    });

    it("settle refunds one failure on refund counters and forgets clear counters", async () => {
      const refunded = { key: key(), limit: 2 };
      const cleared = { key: key(), limit: 2 };
      await fail([refunded, cleared], 2);
      expect((await store.take([refunded], WINDOW, T0)).allowed).toBe(false);
      await store.settle([refunded.key], [cleared.key], T0 + 1);
      expect(await store.take([refunded], WINDOW, T0 + 2)).toEqual({ allowed: true });
      expect((await store.take([refunded], WINDOW, T0 + 3)).allowed).toBe(false);
      await fail([cleared], 2, T0 + 4);
      expect((await store.take([cleared], WINDOW, T0 + 5)).allowed).toBe(false);
    });

    it("a refund never goes below zero nor touches an ended window", async () => {
      const counter = { key: key(), limit: 1 };
      await store.settle([counter.key, key()], [], T0);
      expect(await store.take([counter], WINDOW, T0)).toEqual({ allowed: true });
      expect((await store.take([counter], WINDOW, T0 + 1)).allowed).toBe(false);
      await store.settle([counter.key], [], T0 + WINDOW);
      await store.take([counter], WINDOW, T0 + WINDOW);
      expect((await store.take([counter], WINDOW, T0 + WINDOW + 1)).allowed).toBe(false);
    });

    // Declared only for shared adapters: memory has no other process's view to compare with.
    if (options.shared) {
      it("another store over the same storage sees the same counters", async () => {
        const peer = fixture.peer;
        if (peer === undefined) throw new Error("a shared adapter's fixture must hand out a peer");
        const counter = { key: key(), limit: 2 };
        await store.take([counter], WINDOW, T0);
        await peer.take([counter], WINDOW, T0 + 1);
        expect((await store.take([counter], WINDOW, T0 + 2)).allowed).toBe(false);
        expect((await peer.take([counter], WINDOW, T0 + 2)).allowed).toBe(false);
        await peer.settle([], [counter.key], T0 + 3);
        expect((await store.take([counter], WINDOW, T0 + 4)).allowed).toBe(true);
      });
    }
  });
}
