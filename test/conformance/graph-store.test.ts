/**
 * The graph store contract (LangGraph's BaseStore, plus TTL and scopes) as executable spec, run
 * against every adapter: memory, SQL on SQLite (a temp file) and on PostgreSQL (a database
 * created for this file), and memory and SQLite reached as an execution thread reaches its run's
 * store (over a MessageChannel). Time comes from a ManualClock, so TTL tests never sleep.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import type { BaseStore, Operation } from "@langchain/langgraph-checkpoint";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/core/clock.js";
import {
  type GraphStoreBackend,
  type GraphStoreResult,
  ScopedGraphStore,
} from "../../src/ports/graph-store.js";
import { MemoryGraphStore } from "../../src/stores/memory/graph-store.js";
import { runSaversOverPort } from "../../src/stores/port/run-savers-over-port.js";
import { serveRunSavers } from "../../src/stores/port/serve-run-savers.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlGraphStore } from "../../src/stores/sql/graph-store/sql-graph-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

type MakeBackend = (clock: ManualClock) => Promise<GraphStoreBackend>;

const MINUTE = 60_000;

function describeGraphStore(name: string, makeBackend: MakeBackend): void {
  describe(`graph store contract: ${name}`, () => {
    let clock: ManualClock;
    let backend: GraphStoreBackend;
    let store: ScopedGraphStore;

    beforeEach(async () => {
      clock = new ManualClock();
      backend = await makeBackend(clock);
      store = new ScopedGraphStore(backend, "alice");
    });

    it("puts, gets, updates and deletes an item", async () => {
      expect(await store.get(["docs"], "missing")).toBeNull();
      await store.put(["docs", "user-1"], "report", { title: "Q1", pages: 3 });
      const created = await store.get(["docs", "user-1"], "report");
      expect(created).toMatchObject({
        namespace: ["docs", "user-1"],
        key: "report",
        value: { title: "Q1", pages: 3 },
      });
      expect(created?.createdAt).toBeInstanceOf(Date);
      expect(created?.createdAt.getTime()).toBe(clock.now().getTime());
      clock.advance(1000);
      await store.put(["docs", "user-1"], "report", { title: "Q2" });
      const updated = await store.get(["docs", "user-1"], "report");
      expect(updated?.value).toEqual({ title: "Q2" });
      expect(updated?.createdAt.getTime()).toBe(created?.createdAt.getTime());
      expect(updated?.updatedAt.getTime()).toBe((created?.updatedAt.getTime() ?? 0) + 1000);
      await store.delete(["docs", "user-1"], "report");
      expect(await store.get(["docs", "user-1"], "report")).toBeNull();
      await store.delete(["docs", "user-1"], "report");
    });

    it("deletes every item of every scope at once", async () => {
      const bob = new ScopedGraphStore(backend, "bob");
      await store.put(["docs"], "a", { v: 1 });
      await store.put(["docs", "deep"], "b", { v: 2 });
      await bob.put(["docs"], "a", { v: 3 });
      expect(await backend.deleteAll()).toBe(3);
      expect(await store.get(["docs"], "a")).toBeNull();
      expect(await bob.get(["docs"], "a")).toBeNull();
      expect(await store.listNamespaces()).toEqual([]);
      expect(await backend.deleteAll()).toBe(0);
    });

    it("deletes on a put with a null value, in a batch that runs in order", async () => {
      const [, seen, , gone] = await store.batch([
        { namespace: ["a"], key: "k", value: { v: 1 } },
        { namespace: ["a"], key: "k" },
        { namespace: ["a"], key: "k", value: null },
        { namespace: ["a"], key: "k" },
      ]);
      expect(seen?.value).toEqual({ v: 1 });
      expect(gone).toBeNull();
    });

    it("hands out copies: changing a returned value changes nothing stored", async () => {
      const value = { nested: { n: 1 } };
      await store.put(["a"], "k", value);
      value.nested.n = 2;
      const read = await store.get(["a"], "k");
      expect(read?.value).toEqual({ nested: { n: 1 } });
      if (read) read.value.nested = "changed";
      expect((await store.get(["a"], "k"))?.value).toEqual({ nested: { n: 1 } });
    });

    it("keeps values as JSON: what comes back is what JSON makes of what went in", async () => {
      const at = new Date("2026-02-03T04:05:06.000Z");
      await store.put(["j"], "k", { at, list: [1, "two", null], gone: undefined });
      expect((await store.get(["j"], "k"))?.value).toEqual({
        at: "2026-02-03T04:05:06.000Z",
        list: [1, "two", null],
      });
      await expect(
        store.batch([
          { namespace: ["j"], key: "k", value: [1] as unknown as Record<string, unknown> },
        ]),
      ).rejects.toThrow(/JSON object/);
    });

    it("searches a namespace prefix label by label", async () => {
      await store.put(["a", "b"], "1", { n: 1 });
      await store.put(["a", "b", "c"], "2", { n: 2 });
      await store.put(["a", "bc"], "3", { n: 3 });
      await store.put(["a_b"], "4", { n: 4 });
      await store.put(["x"], "5", { n: 5 });
      const keys = async (prefix: string[]) =>
        (await store.search(prefix, { limit: 100 })).map((item) => item.key).sort();
      expect(await keys(["a", "b"])).toEqual(["1", "2"]);
      expect(await keys(["a"])).toEqual(["1", "2", "3"]);
      expect(await keys(["a_b"])).toEqual(["4"]);
      expect(await keys(["a", "b", "c", "d"])).toEqual([]);
      expect(await keys([])).toEqual(["1", "2", "3", "4", "5"]);
    });

    it("filters by equality and the comparison operators", async () => {
      await store.put(["p"], "cheap", { price: 5, color: "red", tags: { a: 1 } });
      await store.put(["p"], "mid", { price: 10, color: "blue", tags: { a: 2 } });
      await store.put(["p"], "dear", { price: 20, color: "red" });
      const keys = async (filter: Record<string, unknown>) =>
        (await store.search(["p"], { filter })).map((item) => item.key).sort();
      expect(await keys({ color: "red" })).toEqual(["cheap", "dear"]);
      expect(await keys({ color: "red", price: 20 })).toEqual(["dear"]);
      expect(await keys({ tags: { a: 2 } })).toEqual(["mid"]);
      expect(await keys({ price: { $eq: 10 } })).toEqual(["mid"]);
      expect(await keys({ price: { $ne: 10 } })).toEqual(["cheap", "dear"]);
      expect(await keys({ price: { $gt: 5 } })).toEqual(["dear", "mid"]);
      expect(await keys({ price: { $gte: 10 } })).toEqual(["dear", "mid"]);
      expect(await keys({ price: { $lt: 10 } })).toEqual(["cheap"]);
      expect(await keys({ price: { $lte: 10, $gt: 5 } })).toEqual(["mid"]);
      expect(await keys({ color: "green" })).toEqual([]);
      expect(await keys({ missing: "x" })).toEqual([]);
    });

    it("pages search results, most recently updated first", async () => {
      for (const key of ["k1", "k2", "k3", "k4", "k5"]) {
        await store.put(["page"], key, { key });
        clock.advance(10);
      }
      const page = async (offset: number) =>
        (await store.search(["page"], { limit: 2, offset })).map((item) => item.key);
      expect(await page(0)).toEqual(["k5", "k4"]);
      expect(await page(2)).toEqual(["k3", "k2"]);
      expect(await page(4)).toEqual(["k1"]);
      expect(await page(5)).toEqual([]);
    });

    it("pages filtered results over the matching items only", async () => {
      for (let i = 0; i < 12; i += 1) {
        await store.put(["many"], `k${String(i).padStart(2, "0")}`, { even: i % 2 === 0, i });
        clock.advance(10);
      }
      const page = async (offset: number) =>
        (await store.search(["many"], { filter: { even: true }, limit: 4, offset })).map(
          (item) => item.value.i,
        );
      expect(await page(0)).toEqual([10, 8, 6, 4]);
      expect(await page(4)).toEqual([2, 0]);
    });

    it("answers a query without a vector index as a plain search", async () => {
      await store.put(["q"], "k", { text: "hello" });
      const found = await store.search(["q"], { query: "greeting" });
      expect(found.map((item) => item.key)).toEqual(["k"]);
      expect(found[0]?.score).toBeUndefined();
    });

    it("lists namespaces by prefix, suffix, depth and page, in label order", async () => {
      await store.put(["users", "u1", "prefs"], "k", {});
      await store.put(["users", "u2", "prefs"], "k", {});
      await store.put(["users", "u2", "notes"], "k", {});
      await store.put(["docs", "v1"], "k", {});
      expect(await store.listNamespaces()).toEqual([
        ["docs", "v1"],
        ["users", "u1", "prefs"],
        ["users", "u2", "notes"],
        ["users", "u2", "prefs"],
      ]);
      expect(await store.listNamespaces({ prefix: ["users", "u2"] })).toEqual([
        ["users", "u2", "notes"],
        ["users", "u2", "prefs"],
      ]);
      expect(await store.listNamespaces({ suffix: ["prefs"] })).toEqual([
        ["users", "u1", "prefs"],
        ["users", "u2", "prefs"],
      ]);
      expect(await store.listNamespaces({ prefix: ["users", "*", "prefs"] })).toHaveLength(2);
      expect(await store.listNamespaces({ maxDepth: 2 })).toEqual([
        ["docs", "v1"],
        ["users", "u1"],
        ["users", "u2"],
      ]);
      expect(await store.listNamespaces({ limit: 2, offset: 1 })).toEqual([
        ["users", "u1", "prefs"],
        ["users", "u2", "notes"],
      ]);
      await store.delete(["docs", "v1"], "k");
      expect(await store.listNamespaces({ prefix: ["docs"] })).toEqual([]);
    });

    it("hides an item once its TTL passes, and the sweeper deletes it", async () => {
      await store.putItem(["t"], "short", { v: 1 }, { ttl: 1 });
      await store.putItem(["t"], "long", { v: 2 }, { ttl: 10 });
      await store.put(["t"], "forever", { v: 3 });
      clock.advance(MINUTE - 1);
      expect(await store.getItem(["t"], "short", { refreshTtl: false })).not.toBeNull();
      clock.advance(1);
      expect(await store.get(["t"], "short")).toBeNull();
      expect((await store.search(["t"])).map((item) => item.key).sort()).toEqual([
        "forever",
        "long",
      ]);
      clock.advance(10 * MINUTE);
      expect(await store.listNamespaces()).toEqual([["t"]]);
      expect(await backend.sweepExpired()).toBe(2);
      expect(await backend.sweepExpired()).toBe(0);
      expect((await store.search(["t"])).map((item) => item.key)).toEqual(["forever"]);
    });

    it("restarts the TTL on reads unless told not to", async () => {
      await store.putItem(["t"], "got", { v: 1 }, { ttl: 1 });
      await store.putItem(["t"], "found", { v: 2 }, { ttl: 1 });
      await store.putItem(["t"], "peeked", { v: 3 }, { ttl: 1 });
      clock.advance(50_000);
      await store.get(["t"], "got");
      await store.searchItems(["t"], { filter: { v: 2 } });
      await store.getItem(["t"], "peeked", { refreshTtl: false });
      await store.searchItems(["t"], { filter: { v: 3 }, refreshTtl: false });
      clock.advance(50_000);
      expect(await store.getItem(["t"], "got", { refreshTtl: false })).not.toBeNull();
      expect(await store.getItem(["t"], "found", { refreshTtl: false })).not.toBeNull();
      expect(await store.get(["t"], "peeked")).toBeNull();
    });

    it("creates anew an item put over its expired, unswept self", async () => {
      await store.putItem(["t"], "k", { v: 1 }, { ttl: 1 });
      clock.advance(2 * MINUTE);
      await store.put(["t"], "k", { v: 2 });
      const item = await store.get(["t"], "k");
      expect(item?.createdAt.getTime()).toBe(clock.now().getTime());
      clock.advance(60 * MINUTE);
      expect((await store.get(["t"], "k"))?.value).toEqual({ v: 2 });
    });

    it("keeps scopes apart", async () => {
      const bob = new ScopedGraphStore(backend, "bob");
      await store.put(["shared", "name"], "k", { owner: "alice" });
      expect(await bob.get(["shared", "name"], "k")).toBeNull();
      expect(await bob.search([])).toEqual([]);
      expect(await bob.listNamespaces()).toEqual([]);
      await bob.put(["shared", "name"], "k", { owner: "bob" });
      expect((await store.get(["shared", "name"], "k"))?.value).toEqual({ owner: "alice" });
      await bob.delete(["shared", "name"], "k");
      expect((await store.get(["shared", "name"], "k"))?.value).toEqual({ owner: "alice" });
    });

    it("keeps labels and keys with unusual characters exact", async () => {
      const namespace = ["per%cent", "under_score", "ünï😀"];
      await store.put(namespace, "key with spaces/and:colons", { ok: true });
      expect((await store.get(namespace, "key with spaces/and:colons"))?.value).toEqual({
        ok: true,
      });
      expect(await store.search(["per_cent"])).toEqual([]);
      expect((await store.search(["per%cent"])).length).toBe(1);
      expect(await store.listNamespaces({ prefix: ["per%cent"] })).toEqual([namespace]);
    });

    it("refuses bad namespaces and TTLs", async () => {
      await expect(store.put(["a.b"], "k", {})).rejects.toThrow(/period/);
      await expect(store.put([], "k", {})).rejects.toThrow();
      await expect(store.put(["a", ""], "k", {})).rejects.toThrow();
      await expect(store.batch([{ namespace: ["a.b"], key: "k", value: {} }])).rejects.toThrow(
        /period/,
      );
      await expect(store.putItem(["a"], "k", {}, { ttl: 0 })).rejects.toThrow(/ttl/);
      await expect(
        store.put(
          Array.from({ length: 33 }, () => "x"),
          "k",
          {},
        ),
      ).rejects.toThrow(/labels/);
    });
  });
}

describeGraphStore("memory", async (clock) => new MemoryGraphStore({ clock }));

/** Ports opened by `overPorts`, closed after each test. */
const openPorts: Array<() => void> = [];

/**
 * `backend`'s scopes as a run in an execution thread sees them: each scope's ScopedGraphStore
 * served over a MessageChannel, a PortGraphStore on the other end.
 */
function overPorts(backend: GraphStoreBackend): GraphStoreBackend {
  const stores = new Map<string, BaseStore>();
  const storeFor = (scope: string): BaseStore => {
    const known = stores.get(scope);
    if (known) return known;
    const { port1, port2 } = new MessageChannel();
    const served = serveRunSavers(port1, { store: new ScopedGraphStore(backend, scope) });
    const savers = runSaversOverPort(port2);
    openPorts.push(() => {
      savers.close();
      served.close();
    });
    stores.set(scope, savers.store);
    return savers.store;
  };
  return {
    async batchIn(scope, operations) {
      const results: GraphStoreResult[] = await storeFor(scope).batch<Operation[]>([...operations]);
      return results;
    },
    sweepExpired: () => backend.sweepExpired(),
    deleteAll: () => backend.deleteAll(),
    close: () => backend.close(),
  };
}

describe("over a MessagePort", () => {
  afterEach(() => {
    for (const close of openPorts.splice(0)) close();
  });
  describeGraphStore("port over memory", async (clock) =>
    overPorts(new MemoryGraphStore({ clock })),
  );
  describe("on SQLite", () => {
    let dir = "";
    let database: SqlDatabase | null = null;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "fawn-graph-store-port-"));
      database = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
    });
    afterAll(async () => {
      await database?.close();
      await rm(dir, { recursive: true, force: true });
    });
    describeGraphStore("port over sql (sqlite)", async (clock) =>
      overPorts(await freshSqlStore(database, clock)),
    );
  });
});

describe("on SQLite", () => {
  let dir = "";
  let database: SqlDatabase | null = null;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-graph-store-"));
    database = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
  });
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });
  describeGraphStore("sql (sqlite)", async (clock) => freshSqlStore(database, clock));
});

const postgres = await createPostgresTestDatabase("graph_store");

describe.skipIf(postgres === null)("on PostgreSQL", () => {
  let database: SqlDatabase | null = null;
  beforeAll(async () => {
    if (postgres !== null) database = await openSqlDatabase(postgres.url);
  });
  afterAll(async () => {
    await database?.close();
    await postgres?.drop();
  });
  describeGraphStore("sql (postgres)", async (clock) => freshSqlStore(database, clock));
});

/** A store over the file's database, emptied first (the database outlives each test). */
async function freshSqlStore(
  database: SqlDatabase | null,
  clock: ManualClock,
): Promise<GraphStoreBackend> {
  if (database === null) throw new Error("the test database is not open");
  await database.db.deleteFrom("graph_store_items").execute();
  // Small scan pages: a filtered search reads several before its page is full.
  return new SqlGraphStore(database, { clock, filterScanPage: 5 });
}
