/**
 * The AssistantStore contract as executable spec, run against every adapter: memory, SQLite (a
 * temp file) and PostgreSQL (a database created for this file; see test/helpers/postgres.ts).
 * Adapters share one database per engine, so every test works under its own graph id.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssistantStore, NewAssistant } from "../../src/ports/assistant-store.js";
import { MemoryAssistantStore } from "../../src/stores/memory/assistant-store.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlAssistantStore } from "../../src/stores/sql/sql-assistant-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { at, newId } from "./run-store.js";

function describeAssistantStore(name: string, makeStore: () => AssistantStore): void {
  describe(`AssistantStore contract: ${name}`, () => {
    let graph = "";
    let store: AssistantStore;
    const assistant = (fields: Partial<NewAssistant> = {}): NewAssistant => ({
      assistant_id: newId(),
      graph_id: graph,
      name: "Helper",
      created_at: at(1),
      ...fields,
    });

    beforeAll(() => {
      store = makeStore();
    });
    // A fresh graph id per test keeps searches apart in the shared database.
    const fresh = () => {
      graph = `g-${newId()}`;
    };

    it("creates version 1 with defaults and keeps an existing id untouched", async () => {
      fresh();
      const first = await store.create(assistant({ assistant_id: `a-1-${graph}` }));
      expect(first.created).toBe(true);
      expect(first.assistant).toMatchObject({
        graph_id: graph,
        name: "Helper",
        description: null,
        config: {},
        context: {},
        metadata: {},
        version: 1,
        user_id: null,
      });
      expect(Date.parse(first.assistant.created_at)).toBe(Date.parse(at(1)));
      const again = await store.create(
        assistant({ assistant_id: first.assistant.assistant_id, name: "Other" }),
      );
      expect(again.created).toBe(false);
      expect(again.assistant.name).toBe("Helper");
      expect(await store.get(first.assistant.assistant_id)).toEqual(first.assistant);
      expect(await store.get(newId())).toBeNull();
    });

    it("round-trips nested JSON config, context and metadata", async () => {
      fresh();
      const config = {
        configurable: { model: "ünï", deep: { list: [1, "two", null] } },
        tags: ["x"],
      };
      const { assistant: row } = await store.create(
        assistant({ config, context: { tz: "UTC" }, metadata: { team: { id: 7 } } }),
      );
      const read = await store.get(row.assistant_id);
      expect(read?.config).toEqual(config);
      expect(read?.context).toEqual({ tz: "UTC" });
      expect(read?.metadata).toEqual({ team: { id: 7 } });
    });

    it("writes a new immutable version per update, merging metadata", async () => {
      fresh();
      const { assistant: row } = await store.create(
        assistant({ config: { configurable: { a: 1 } }, metadata: { keep: true } }),
      );
      const id = row.assistant_id;
      const v2 = await store.update(id, { config: { configurable: { b: 2 } } }, at(2));
      expect(v2).toMatchObject({ version: 2, config: { configurable: { b: 2 } } });
      expect(Date.parse(v2?.updated_at ?? "")).toBe(Date.parse(at(2)));
      const v3 = await store.update(id, { metadata: { foo: "baz" }, description: "d" }, at(3));
      expect(v3).toMatchObject({
        version: 3,
        metadata: { keep: true, foo: "baz" },
        description: "d",
      });
      const v4 = await store.update(id, {}, at(4));
      expect(v4).toMatchObject({ version: 4, config: { configurable: { b: 2 } } });
      const versions = await store.versions(id);
      expect(versions.map((v) => v.version)).toEqual([4, 3, 2, 1]);
      expect(versions[3]).toMatchObject({
        config: { configurable: { a: 1 } },
        metadata: { keep: true },
      });
      expect((await store.versions(id, { limit: 1 })).map((v) => v.version)).toEqual([4]);
      expect((await store.versions(id, { offset: 3 })).map((v) => v.version)).toEqual([1]);
      expect(
        (await store.versions(id, { metadata: { foo: "baz" } })).map((v) => v.version),
      ).toEqual([4, 3]);
      expect(await store.update(newId(), {}, at(5))).toBeNull();
    });

    it("sets an earlier version as the one in use; the next update is newest + 1", async () => {
      fresh();
      const { assistant: row } = await store.create(assistant({ name: "one" }));
      const id = row.assistant_id;
      await store.update(id, { name: "two", context: { c: 2 } }, at(2));
      const back = await store.setLatest(id, 1, at(3));
      expect(back).toMatchObject({
        status: "updated",
        assistant: { version: 1, name: "one", context: {} },
      });
      expect(await store.get(id)).toMatchObject({ version: 1, name: "one" });
      expect((await store.update(id, {}, at(4)))?.version).toBe(3);
      expect(await store.setLatest(id, 9, at(5))).toEqual({ status: "version_not_found" });
      expect(await store.setLatest(newId(), 1, at(5))).toEqual({ status: "assistant_not_found" });
      expect((await store.versions(id)).map((v) => [v.version, v.name])).toEqual([
        [3, "one"],
        [2, "two"],
        [1, "one"],
      ]);
    });

    it("deletes an assistant with its versions", async () => {
      fresh();
      const { assistant: row } = await store.create(assistant());
      await store.update(row.assistant_id, {}, at(2));
      expect(await store.delete(row.assistant_id)).toBe(true);
      expect(await store.get(row.assistant_id)).toBeNull();
      expect(await store.versions(row.assistant_id)).toEqual([]);
      expect(await store.delete(row.assistant_id)).toBe(false);
      // The id is free again and starts over at version 1.
      const again = await store.create(assistant({ assistant_id: row.assistant_id }));
      expect(again.assistant.version).toBe(1);
      expect((await store.versions(row.assistant_id)).map((v) => v.version)).toEqual([1]);
    });

    it("searches by graph, name substring and metadata containment; counts the same", async () => {
      fresh();
      await store.create(
        assistant({
          name: "SIMPLE_runtime",
          metadata: { team: { id: 1, x: 2 }, tags: ["a", "b"] },
          created_at: at(1),
        }),
      );
      await store.create(
        assistant({ name: "other", metadata: { team: { id: 2 } }, created_at: at(2) }),
      );
      await store.create(assistant({ name: "Third", created_at: at(3) }));
      const names = async (query: Parameters<AssistantStore["search"]>[0]) =>
        (await store.search({ graphId: graph, ...query })).map((a) => a.name);
      expect(await names({})).toEqual(["Third", "other", "SIMPLE_runtime"]);
      expect(await names({ sortOrder: "asc" })).toEqual(["SIMPLE_runtime", "other", "Third"]);
      expect(await names({ sortBy: "name", sortOrder: "asc" })).toEqual([
        "SIMPLE_runtime",
        "Third",
        "other",
      ]);
      expect(await names({ name: "ple_RUN" })).toEqual(["SIMPLE_runtime"]);
      expect(await names({ name: "%" })).toEqual([]);
      expect(await names({ metadata: { team: { id: 1 } } })).toEqual(["SIMPLE_runtime"]);
      expect(await names({ metadata: { tags: ["b"] } })).toEqual(["SIMPLE_runtime"]);
      expect(await names({ metadata: { team: { id: 3 } } })).toEqual([]);
      expect(await names({ limit: 1, offset: 1 })).toEqual(["other"]);
      expect(await names({ name: "t", limit: 1, offset: 1 })).toEqual(["other"]);
      expect(await store.count({ graphId: graph })).toBe(3);
      expect(await store.count({ graphId: graph, name: "t" })).toBe(3);
      expect(await store.count({ graphId: graph, metadata: { team: {} } })).toBe(2);
      expect(await store.search({ graphId: `${graph}-none` })).toEqual([]);
    });

    it("shows an owned assistant only to its owner and an ownerless one to everyone", async () => {
      fresh();
      const { assistant: mine } = await store.create(assistant({ user_id: "alice", name: "mine" }));
      await store.create(assistant({ name: "shared" }));
      const alice = { visibleTo: "alice" };
      const bob = { visibleTo: "bob" };
      const names = async (visibleTo: string) =>
        (await store.search({ graphId: graph, visibleTo, sortBy: "name", sortOrder: "asc" })).map(
          (a) => a.name,
        );
      expect(await names("alice")).toEqual(["mine", "shared"]);
      expect(await names("bob")).toEqual(["shared"]);
      expect(await store.count({ graphId: graph, ...bob })).toBe(1);
      expect(await store.get(mine.assistant_id, bob)).toBeNull();
      expect(await store.get(mine.assistant_id, alice)).toMatchObject({ user_id: "alice" });
      expect(await store.update(mine.assistant_id, { name: "x" }, at(2), bob)).toBeNull();
      expect(await store.versions(mine.assistant_id, bob)).toEqual([]);
      expect(await store.setLatest(mine.assistant_id, 1, at(2), bob)).toEqual({
        status: "assistant_not_found",
      });
      expect(await store.delete(mine.assistant_id, bob)).toBe(false);
      expect(await store.get(mine.assistant_id)).toMatchObject({ name: "mine", version: 1 });
      expect(await store.delete(mine.assistant_id, alice)).toBe(true);
    });

    it("gives concurrent updates distinct versions", async () => {
      fresh();
      const { assistant: row } = await store.create(assistant());
      const results = await Promise.all(
        [2, 3, 4, 5].map((n) => store.update(row.assistant_id, { name: `n${n}` }, at(n))),
      );
      expect(results.map((r) => r?.version).sort()).toEqual([2, 3, 4, 5]);
      expect((await store.versions(row.assistant_id)).map((v) => v.version)).toEqual([
        5, 4, 3, 2, 1,
      ]);
    });
  });
}

describeAssistantStore("memory", () => new MemoryAssistantStore());

describe("SQL on SQLite", () => {
  let dir = "";
  let database: SqlDatabase | null = null;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-assistants-"));
    database = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
  });
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });
  describeAssistantStore("sql (sqlite)", () => {
    if (database === null) throw new Error("the SQLite test database is not open");
    return new SqlAssistantStore(database);
  });
});

const postgres = await createPostgresTestDatabase("assistants");
describe.skipIf(postgres === null)("SQL on PostgreSQL", () => {
  let database: SqlDatabase | null = null;
  beforeAll(async () => {
    if (postgres !== null) database = await openSqlDatabase(postgres.url);
  });
  afterAll(async () => {
    await database?.close();
    await postgres?.drop();
  });
  describeAssistantStore("sql (postgres)", () => {
    if (database === null) throw new Error("the PostgreSQL test database is not open");
    return new SqlAssistantStore(database);
  });
});
