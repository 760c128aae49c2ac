/**
 * The ThreadStore contract as executable spec, shared by every thread store adapter. Searches are
 * narrowed by a per-test metadata tag or user, so a shared database works.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OwnershipLostError } from "../../src/core/errors.js";
import type { RunStore } from "../../src/ports/run-store.js";
import type {
  NewThread,
  ThreadRow,
  ThreadSearch,
  ThreadStore,
} from "../../src/ports/thread-store.js";
import { createOwnedRun, OWNER, PEER } from "./owned-run.js";
import { at, newId } from "./run-store.js";

export interface ThreadStoreFixture {
  store: ThreadStore;
  /** The run rows a fenced status write checks (the paired run store); none: fence cases skip. */
  runs?: RunStore;
  /** Defaults to `store.close()`. */
  cleanup?: () => Promise<void>;
}

const idsOf = (rows: ThreadRow[]) => rows.map((row) => row.thread_id);

function expectSameInstant(actual: string | undefined, expected: string): void {
  expect(actual === undefined ? null : Date.parse(actual)).toBe(Date.parse(expected));
}

export function describeThreadStore(
  name: string,
  makeStore: () => Promise<ThreadStoreFixture>,
): void {
  describe(`ThreadStore contract: ${name}`, () => {
    let fixture: ThreadStoreFixture;
    let store: ThreadStore;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });

    afterEach(async () => {
      await (fixture.cleanup ? fixture.cleanup() : fixture.store.close());
    });

    async function create(fields: Partial<NewThread> = {}): Promise<ThreadRow> {
      const result = await store.create({ thread_id: newId(), created_at: at(0), ...fields });
      expect(result.created).toBe(true);
      return result.thread;
    }

    describe("create and get", () => {
      it("creates an idle thread that get returns", async () => {
        const threadId = newId();
        const { thread, created } = await store.create({
          thread_id: threadId,
          user_id: "alice",
          assistant_id: "lead_agent",
          display_name: "Research",
          metadata: { graph_id: "lead_agent", nested: { a: [1, 2] } },
          created_at: at(3),
        });
        expect(created).toBe(true);
        expect(thread).toMatchObject({
          thread_id: threadId,
          user_id: "alice",
          assistant_id: "lead_agent",
          display_name: "Research",
          status: "idle",
          metadata: { graph_id: "lead_agent", nested: { a: [1, 2] } },
        });
        expectSameInstant(thread.created_at, at(3));
        expectSameInstant(thread.updated_at, at(3));
        expect(await store.get(threadId)).toEqual(thread);
      });

      it("fills defaults for omitted fields", async () => {
        const thread = await create();
        expect(thread).toMatchObject({
          user_id: null,
          assistant_id: null,
          display_name: null,
          status: "idle",
          metadata: {},
        });
      });

      it("a taken id answers created=false with the existing row unchanged", async () => {
        const original = await create({ user_id: "alice", metadata: { v: 1 } });
        const again = await store.create({
          thread_id: original.thread_id,
          user_id: "bob",
          metadata: { v: 2 },
          created_at: at(9),
        });
        expect(again.created).toBe(false);
        expect(again.thread).toEqual(original);
        expect(await store.get(original.thread_id)).toEqual(original);
      });

      it("get filters by owner only when a user id is given", async () => {
        const thread = await create({ user_id: "alice" });
        expect(await store.get(thread.thread_id, { userId: "alice" })).toEqual(thread);
        expect(await store.get(thread.thread_id, { userId: "mallory" })).toBeNull();
        expect(await store.get(thread.thread_id, { userId: null })).toEqual(thread);
        expect(await store.get(newId())).toBeNull();
      });
    });

    describe("updates", () => {
      it("update merges metadata shallowly and sets the given columns", async () => {
        const thread = await create({ user_id: "alice", metadata: { a: 1, b: { x: 1 } } });
        const updated = await store.update(
          thread.thread_id,
          { metadata: { b: { y: 2 }, c: 3 }, display_name: "Renamed", assistant_id: "other" },
          { userId: "alice" },
        );
        expect(updated).toMatchObject({
          metadata: { a: 1, b: { y: 2 }, c: 3 },
          display_name: "Renamed",
          assistant_id: "other",
          status: "idle",
        });
        expect(await store.get(thread.thread_id)).toEqual(updated);
        const untouched = await store.update(thread.thread_id, { display_name: "Again" });
        expect(untouched?.metadata).toEqual({ a: 1, b: { y: 2 }, c: 3 });
      });

      it("update refuses another owner's thread and a missing one", async () => {
        const thread = await create({ user_id: "alice", metadata: { a: 1 } });
        expect(
          await store.update(thread.thread_id, { metadata: { a: 2 } }, { userId: "mallory" }),
        ).toBeNull();
        expect(await store.get(thread.thread_id)).toEqual(thread);
        expect(await store.update(newId(), { metadata: { a: 2 } })).toBeNull();
      });

      it("updateStatus and updateDisplayName set the column and updated_at", async () => {
        const thread = await create();
        expect(await store.updateStatus(thread.thread_id, "busy", at(10))).toBe(true);
        let stored = await store.get(thread.thread_id);
        expect(stored?.status).toBe("busy");
        expectSameInstant(stored?.updated_at, at(10));
        expect(await store.updateDisplayName(thread.thread_id, "Title", at(20))).toBe(true);
        stored = await store.get(thread.thread_id);
        expect(stored).toMatchObject({ status: "busy", display_name: "Title" });
        expectSameInstant(stored?.updated_at, at(20));
        expect(await store.updateStatus(newId(), "idle", at(30))).toBe(false);
        expect(await store.updateDisplayName(newId(), "x", at(30))).toBe(false);
      });
    });

    describe("search and count", () => {
      /** Three threads sharing a fresh tag: created at 1, 2, 3 seconds; updated in reverse. */
      async function seed(): Promise<{ tag: string; rows: ThreadRow[] }> {
        const tag = newId();
        const rows: ThreadRow[] = [];
        for (const [second, user] of [
          [1, "alice"],
          [2, "bob"],
          [3, "alice"],
        ] as const) {
          rows.push(
            await create({
              user_id: user,
              created_at: at(second),
              metadata: { tag, kind: second === 2 ? "odd-one" : "regular", cfg: { n: second } },
            }),
          );
        }
        for (const [index, row] of rows.entries()) {
          await store.updateStatus(row.thread_id, index === 1 ? "busy" : "idle", at(10 - index));
        }
        return { tag, rows };
      }

      it("puts rows pinned under pinnedKey first, then the chosen order, across pages", async () => {
        const tag = newId();
        const rows: ThreadRow[] = [];
        for (const [second, pin] of [
          [1, true],
          [2, "yes"],
          [3, false],
          [4, true],
        ] as const) {
          rows.push(await create({ created_at: at(second), metadata: { tag, pin } }));
        }
        const [one, two, three, four] = idsOf(rows);
        const query: ThreadSearch = { metadata: { tag }, sortBy: "created_at", pinnedKey: "pin" };
        // Only JSON `true` pins; newest first within each group.
        expect(idsOf(await store.search(query))).toEqual([four, one, three, two]);
        expect(idsOf(await store.search({ ...query, sortOrder: "asc" }))).toEqual([
          one,
          four,
          two,
          three,
        ]);
        expect(idsOf(await store.search({ ...query, limit: 2, offset: 1 }))).toEqual([one, three]);
        expect(idsOf(await store.search({ metadata: { tag }, sortBy: "created_at" }))).toEqual([
          four,
          three,
          two,
          one,
        ]);
      });

      it("filters by metadata, status and owner", async () => {
        const { tag, rows } = await seed();
        const [first, second, third] = idsOf(rows);
        const search = (query: ThreadSearch) => store.search({ sortOrder: "asc", ...query });
        expect(idsOf(await search({ metadata: { tag } }))).toEqual([first, second, third]);
        expect(idsOf(await search({ metadata: { tag, kind: "odd-one" } }))).toEqual([second]);
        expect(idsOf(await search({ metadata: { tag, cfg: { n: 3 } } }))).toEqual([third]);
        expect(await search({ metadata: { tag, cfg: { n: 4 } } })).toEqual([]);
        expect(idsOf(await search({ metadata: { tag }, status: "busy" }))).toEqual([second]);
        expect(idsOf(await search({ metadata: { tag }, userId: "alice" }))).toEqual([first, third]);
        expect(await search({ metadata: { tag }, userId: "mallory" })).toEqual([]);
        expect(await search({ metadata: { tag: newId() } })).toEqual([]);
      });

      it("sorts by the chosen column and pages with limit and offset", async () => {
        const { tag, rows } = await seed();
        const [first, second, third] = idsOf(rows);
        const search = (query: Omit<ThreadSearch, "metadata">) =>
          store.search({ metadata: { tag }, ...query }).then(idsOf);
        expect(await search({ sortBy: "created_at", sortOrder: "desc" })).toEqual([
          third,
          second,
          first,
        ]);
        expect(await search({ sortBy: "created_at", sortOrder: "asc" })).toEqual([
          first,
          second,
          third,
        ]);
        expect(await search({ sortBy: "updated_at", sortOrder: "asc" })).toEqual([
          third,
          second,
          first,
        ]);
        expect(await search({ sortBy: "thread_id", sortOrder: "asc" })).toEqual(idsOf(rows).sort());
        expect(await search({ sortBy: "created_at", sortOrder: "asc", limit: 2 })).toEqual([
          first,
          second,
        ]);
        expect(
          await search({ sortBy: "created_at", sortOrder: "asc", limit: 2, offset: 2 }),
        ).toEqual([third]);
      });

      it("count applies the same filters", async () => {
        const { tag } = await seed();
        expect(await store.count({ metadata: { tag } })).toBe(3);
        expect(await store.count({ metadata: { tag }, userId: "alice" })).toBe(2);
        expect(await store.count({ metadata: { tag }, status: "busy" })).toBe(1);
        expect(await store.count({ metadata: { tag: newId() } })).toBe(0);
      });
    });

    describe("fenced status write (the run row's owner)", () => {
      it("the owner's write commits; after a takeover the ex-owner's is refused and changes nothing", async (context) => {
        const runs = fixture.runs;
        if (!runs) return context.skip();
        const thread = await create();
        const runId = await createOwnedRun(runs, thread.thread_id);
        const owner = { fence: { runId, workerId: OWNER } };
        expect(await store.updateStatus(thread.thread_id, "busy", at(10), owner)).toBe(true);
        expect(await store.updateStatus(newId(), "busy", at(10), owner)).toBe(false);
        expect(
          await runs.claimForTakeover(runId, {
            now: at(60),
            graceSeconds: 0,
            error: "gone",
            workerId: PEER,
          }),
        ).toBe(true);
        expect(await store.updateStatus(thread.thread_id, "error", at(61))).toBe(true);
        const before = await store.get(thread.thread_id);
        await expect(
          store.updateStatus(thread.thread_id, "idle", at(70), owner),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        expect(await store.get(thread.thread_id)).toEqual(before);
        const peer = { fence: { runId, workerId: PEER } };
        expect(await store.updateStatus(thread.thread_id, "idle", at(80), peer)).toBe(true);
        expect((await store.get(thread.thread_id))?.status).toBe("idle");
      });

      it("a fenced write for a run without a row is refused", async (context) => {
        if (!fixture.runs) return context.skip();
        const thread = await create();
        const fence = { runId: newId(), workerId: OWNER };
        await expect(
          store.updateStatus(thread.thread_id, "busy", at(10), { fence }),
        ).rejects.toBeInstanceOf(OwnershipLostError);
        expect((await store.get(thread.thread_id))?.status).toBe("idle");
      });
    });

    describe("delete", () => {
      it("is owner-scoped", async () => {
        const thread = await create({ user_id: "alice" });
        expect(await store.delete(thread.thread_id, { userId: "mallory" })).toBe(false);
        expect(await store.get(thread.thread_id)).not.toBeNull();
        expect(await store.delete(thread.thread_id, { userId: "alice" })).toBe(true);
        expect(await store.get(thread.thread_id)).toBeNull();
        expect(await store.delete(thread.thread_id)).toBe(false);
        const unowned = await create();
        expect(await store.delete(unowned.thread_id)).toBe(true);
      });
    });
  });
}
