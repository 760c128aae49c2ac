/**
 * The CronStore contract, run against every adapter: rows scoped by owner, search and count, and
 * the firing protocol's `claim` and `advance` steps (one claimant per tick, takeover only after
 * the lease expired, a completed tick never claimed again, a lost claim never advances).
 */
import { describe, expect, it } from "vitest";
import type { CronClaim, CronRow, CronStore } from "../../src/ports/cron-store.js";

export interface CronStoreFixture {
  store: CronStore;
  /** A second handle on the same data (another connection, as another process would open). */
  peer: CronStore;
  cleanup(): Promise<void>;
}

const T0 = "2026-03-01T10:00:00.000Z";
const at = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
let counter = 0;

function cron(overrides: Partial<CronRow> = {}): CronRow {
  counter += 1;
  return {
    cron_id: `cron-${counter}-${Math.random().toString(36).slice(2, 8)}`,
    assistant_id: "agent",
    thread_id: null,
    user_id: "alice",
    schedule: "*/5 * * * *",
    timezone: null,
    payload: { input: { n: counter } },
    metadata: {},
    on_run_completed: "delete",
    enabled: true,
    end_time: null,
    next_run_date: at(0),
    created_at: at(-60 + counter / 1000),
    updated_at: at(-60),
    ...overrides,
  };
}

const claimArgs = (owner: string, now: string, limit = 100) => ({
  owner,
  now,
  leaseSeconds: 60,
  limit,
});

export function describeCronStore(name: string, open: () => Promise<CronStoreFixture>): void {
  describe(`CronStore conformance: ${name}`, () => {
    async function withStores(fn: (f: CronStoreFixture) => Promise<void>): Promise<void> {
      const fixture = await open();
      try {
        await fn(fixture);
      } finally {
        await fixture.cleanup();
      }
    }

    it("creates, reads (owner-scoped), updates and deletes a cron", () =>
      withStores(async ({ store }) => {
        const row = cron({ thread_id: "thread-1", metadata: { team: "a" } });
        expect(await store.create(row)).toEqual(row);
        await expect(store.create(row)).rejects.toMatchObject({ code: "conflict" });
        expect(await store.get(row.cron_id)).toEqual(row);
        expect(await store.get(row.cron_id, { userId: "alice" })).toEqual(row);
        expect(await store.get(row.cron_id, { userId: "bob" })).toBeNull();
        expect(await store.update(row.cron_id, { enabled: false }, at(1), { userId: "bob" })).toBe(
          null,
        );
        const updated = await store.update(
          row.cron_id,
          { enabled: false, schedule: "0 * * * *", end_time: at(100), metadata: { team: "b" } },
          at(1),
          { userId: "alice" },
        );
        expect(updated).toEqual({
          ...row,
          enabled: false,
          schedule: "0 * * * *",
          end_time: at(100),
          metadata: { team: "b" },
          updated_at: at(1),
        });
        expect(await store.update(row.cron_id, { end_time: null }, at(2))).toMatchObject({
          end_time: null,
          enabled: false,
        });
        expect(await store.delete(row.cron_id, { userId: "bob" })).toBe(false);
        expect(await store.delete(row.cron_id, { userId: "alice" })).toBe(true);
        expect(await store.get(row.cron_id)).toBeNull();
        expect(await store.delete(row.cron_id)).toBe(false);
      }));

    it("searches and counts by owner, assistant, thread, enabled and metadata", () =>
      withStores(async ({ store }) => {
        const user = `user-${Math.random().toString(36).slice(2, 8)}`;
        const a = await store.create(cron({ user_id: user, metadata: { k: "x", deep: { a: 1 } } }));
        const b = await store.create(
          cron({ user_id: user, assistant_id: "other", thread_id: "t-1", metadata: { k: "y" } }),
        );
        const c = await store.create(cron({ user_id: user, enabled: false, metadata: { k: "x" } }));
        await store.create(cron({ user_id: `${user}-else`, metadata: { k: "x" } }));
        const ids = (rows: CronRow[]) => rows.map((row) => row.cron_id);
        const page = { limit: 10, offset: 0 };
        expect(ids(await store.search({ userId: user, ...page, sortOrder: "asc" }))).toEqual([
          a.cron_id,
          b.cron_id,
          c.cron_id,
        ]);
        expect(ids(await store.search({ userId: user, ...page }))).toEqual([
          c.cron_id,
          b.cron_id,
          a.cron_id,
        ]);
        expect(ids(await store.search({ userId: user, limit: 1, offset: 1 }))).toEqual([b.cron_id]);
        expect(ids(await store.search({ userId: user, assistantId: "other", ...page }))).toEqual([
          b.cron_id,
        ]);
        expect(ids(await store.search({ userId: user, threadId: "t-1", ...page }))).toEqual([
          b.cron_id,
        ]);
        expect(ids(await store.search({ userId: user, enabled: false, ...page }))).toEqual([
          c.cron_id,
        ]);
        expect(
          ids(
            await store.search({ userId: user, metadata: { k: "x" }, ...page, sortOrder: "asc" }),
          ),
        ).toEqual([a.cron_id, c.cron_id]);
        expect(
          ids(await store.search({ userId: user, metadata: { deep: { a: 1 } }, ...page })),
        ).toEqual([a.cron_id]);
        expect(await store.search({ userId: user, metadata: { deep: { a: 2 } }, ...page })).toEqual(
          [],
        );
        expect(await store.count({ userId: user })).toBe(3);
        expect(await store.count({ userId: user, metadata: { k: "x" } })).toBe(2);
        expect(await store.count({ userId: user, metadata: { deep: { a: 1 } } })).toBe(1);
        expect(await store.count({ userId: user, assistantId: "other" })).toBe(1);
      }));

    it("claims a due tick once; a peer gets it only after the lease expired", () =>
      withStores(async ({ store, peer }) => {
        const row = await store.create(cron({ next_run_date: at(10) }));
        const mine = (claims: CronClaim[]) => claims.filter((c) => c.cron.cron_id === row.cron_id);
        expect(mine(await store.claimDue(claimArgs("p1", at(9))))).toEqual([]);
        const [first] = mine(await store.claimDue(claimArgs("p1", at(10))));
        expect(first).toMatchObject({ tick: at(10), owner: "p1", attempt: 1 });
        expect(first?.cron).toEqual(row);
        // Held: neither the peer nor the holder itself claims it again before the lease ends.
        expect(mine(await peer.claimDue(claimArgs("p2", at(10.5))))).toEqual([]);
        expect(mine(await store.claimDue(claimArgs("p1", at(10.5))))).toEqual([]);
        // Expired: the peer takes it over.
        const [taken] = mine(await peer.claimDue(claimArgs("p2", at(11.01))));
        expect(taken).toMatchObject({ tick: at(10), owner: "p2", attempt: 2 });
        if (!first || !taken) throw new Error("expected claims");
        // The first claimant lost it: its advance writes nothing.
        expect(
          await store.completeFiring(first, { runId: "r1", nextRunDate: at(15), now: at(11.5) }),
        ).toBe(false);
        expect((await store.get(row.cron_id))?.next_run_date).toBe(at(10));
        expect(
          await peer.completeFiring(taken, { runId: "r1", nextRunDate: at(15), now: at(11.5) }),
        ).toBe(true);
        expect(await store.get(row.cron_id)).toMatchObject({
          next_run_date: at(15),
          updated_at: at(11.5),
        });
        // Completing twice is refused too.
        expect(
          await peer.completeFiring(taken, { runId: "r1", nextRunDate: at(20), now: at(12) }),
        ).toBe(false);
        expect(mine(await store.claimDue(claimArgs("p1", at(12))))).toEqual([]);
        const [next] = mine(await store.claimDue(claimArgs("p1", at(15))));
        expect(next).toMatchObject({ tick: at(15), attempt: 1 });
      }));

    it("never claims a completed tick again, even when the cron is set back to it", () =>
      withStores(async ({ store }) => {
        const row = await store.create(cron({ next_run_date: at(20) }));
        const [claim] = (await store.claimDue(claimArgs("p1", at(20)))).filter(
          (c) => c.cron.cron_id === row.cron_id,
        );
        if (!claim) throw new Error("expected a claim");
        await store.completeFiring(claim, { runId: null, nextRunDate: at(25), now: at(20) });
        await store.update(row.cron_id, { next_run_date: at(20) }, at(21));
        const again = await store.claimDue(claimArgs("p2", at(30)));
        expect(again.filter((c) => c.cron.cron_id === row.cron_id)).toEqual([]);
      }));

    it("skips disabled and ended crons and honours the limit, oldest first", () =>
      withStores(async ({ store }) => {
        const disabled = await store.create(cron({ enabled: false, next_run_date: at(-500) }));
        const ended = await store.create(cron({ next_run_date: null }));
        const older = await store.create(cron({ next_run_date: at(-400) }));
        const newer = await store.create(cron({ next_run_date: at(-300) }));
        const claims = await store.claimDue(claimArgs("p1", at(-300), 1));
        expect(claims.map((c) => c.cron.cron_id)).toEqual([older.cron_id]);
        const rest = (await store.claimDue(claimArgs("p1", at(-300)))).map((c) => c.cron.cron_id);
        expect(rest).toContain(newer.cron_id);
        expect(rest).not.toContain(disabled.cron_id);
        expect(rest).not.toContain(ended.cron_id);
        expect(rest).not.toContain(older.cron_id);
      }));

    it("gives a tick claimed by two handles at once to exactly one", () =>
      withStores(async ({ store, peer }) => {
        const rows = await Promise.all(
          Array.from({ length: 5 }, () => store.create(cron({ next_run_date: at(-1000) }))),
        );
        const wanted = new Set(rows.map((row) => row.cron_id));
        const [a, b] = await Promise.all([
          store.claimDue(claimArgs("p1", at(-1000))),
          peer.claimDue(claimArgs("p2", at(-1000))),
        ]);
        const claimed = [...a, ...b].map((c) => c.cron.cron_id).filter((id) => wanted.has(id));
        expect(claimed.sort()).toEqual([...wanted].sort());
      }));

    it("deletes a cron's firings with it", () =>
      withStores(async ({ store }) => {
        const row = cron({ next_run_date: at(-2000) });
        await store.create(row);
        const first = (await store.claimDue(claimArgs("p1", at(-2000)))).find(
          (c) => c.cron.cron_id === row.cron_id,
        );
        expect(first?.attempt).toBe(1);
        await store.delete(row.cron_id);
        await store.create(row);
        const again = (await store.claimDue(claimArgs("p2", at(-2000)))).find(
          (c) => c.cron.cron_id === row.cron_id,
        );
        expect(again).toMatchObject({ owner: "p2", attempt: 1 });
      }));
  });
}
