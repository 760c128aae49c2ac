/**
 * The DocumentStore contract, run against every adapter: memory, SQLite (a temp file) and
 * PostgreSQL (a database created for this file). Each test works under its own owner, so the
 * shared database never mixes them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DocumentStore, updateDocument } from "../../src/ports/document-store.js";
import { MemoryDocumentStore } from "../../src/stores/memory/document-store.js";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlDocumentStore } from "../../src/stores/sql/documents/sql-document-store.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";
import { newId } from "./run-store.js";

function describeDocumentStore(name: string, makeStore: () => DocumentStore): void {
  describe(`DocumentStore contract: ${name}`, () => {
    let store: DocumentStore;
    beforeAll(() => {
      store = makeStore();
    });

    it("creates at revision 1, reads it back, and refuses a second create", async () => {
      const owner = newId();
      const created = await store.put("memory", owner, "doc", { facts: [1, "two"] }, 0);
      expect(created).toMatchObject({ collection: "memory", owner, key: "doc", revision: 1 });
      expect(created?.value).toEqual({ facts: [1, "two"] });
      expect(await store.get("memory", owner, "doc")).toEqual(created);
      expect(await store.put("memory", owner, "doc", { other: true }, 0)).toBeNull();
      expect((await store.get("memory", owner, "doc"))?.value).toEqual({ facts: [1, "two"] });
      expect(await store.get("memory", owner, "missing")).toBeNull();
      expect(await store.get("agents", owner, "doc")).toBeNull();
      expect(await store.get("memory", newId(), "doc")).toBeNull();
    });

    it("writes only at the expected revision, or at any with 'any'", async () => {
      const owner = newId();
      await store.put("c", owner, "k", { n: 1 }, 0);
      expect(await store.put("c", owner, "k", { n: 2 }, 5)).toBeNull();
      const second = await store.put("c", owner, "k", { n: 2 }, 1);
      expect(second).toMatchObject({ revision: 2, value: { n: 2 } });
      const third = await store.put("c", owner, "k", { n: 3 }, "any");
      expect(third).toMatchObject({ revision: 3, value: { n: 3 } });
      const fresh = await store.put("c", owner, "new", { n: 1 }, "any");
      expect(fresh?.revision).toBe(1);
      expect(Date.parse(third?.created_at ?? "")).toBeLessThanOrEqual(
        Date.parse(third?.updated_at ?? ""),
      );
    });

    it("lists an owner's documents of a collection in key order, by prefix", async () => {
      const owner = newId();
      for (const key of ["b:2", "a:1", "b:1", "B:0", "b_x"]) {
        await store.put("skills", owner, key, { key }, 0);
      }
      await store.put("agents", owner, "b:9", {}, 0);
      await store.put("skills", newId(), "b:9", {}, 0);
      const all = await store.list("skills", owner);
      expect(all.map((d) => d.key)).toEqual(["B:0", "a:1", "b:1", "b:2", "b_x"]);
      const prefixed = await store.list("skills", owner, { keyPrefix: "b:" });
      expect(prefixed.map((d) => d.key)).toEqual(["b:1", "b:2"]);
      expect((await store.list("skills", owner, { limit: 2 })).length).toBe(2);
      expect((await store.list("skills", owner, { keyPrefix: "b%" })).length).toBe(0);
    });

    it("deletes one document (optionally at a revision) and all of an owner's", async () => {
      const owner = newId();
      await store.put("c", owner, "one", {}, 0);
      await store.put("c", owner, "two", {}, 0);
      await store.put("c", owner, "three", {}, 0);
      const other = newId();
      await store.put("c", other, "one", {}, 0);
      expect(await store.delete("c", owner, "one", 7)).toBe(false);
      expect(await store.delete("c", owner, "one", 1)).toBe(true);
      expect(await store.delete("c", owner, "one")).toBe(false);
      expect(await store.deleteAll("c", owner)).toBe(2);
      expect(await store.list("c", owner)).toEqual([]);
      expect(await store.get("c", other, "one")).not.toBeNull();
    });

    it("keeps every concurrent read-modify-write (no lost update)", async () => {
      const owner = newId();
      await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          updateDocument(store, "memory", owner, "doc", (current) => ({
            items: [...((current?.value.items as number[] | undefined) ?? []), index],
          })),
        ),
      );
      const stored = await store.get("memory", owner, "doc");
      expect(
        [...((stored?.value.items as number[] | undefined) ?? [])].sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 12 }, (_, index) => index));
      expect(stored?.revision).toBe(12);
    });

    it("refuses empty or over-long names and never stores them", async () => {
      const owner = newId();
      await expect(store.put("c", owner, "", {}, 0)).rejects.toThrow(/key/);
      await expect(store.put("c", owner, "k".repeat(129), {}, 0)).rejects.toThrow(/key/);
      expect(await store.list("c", owner)).toEqual([]);
    });
  });
}

describeDocumentStore("memory", () => new MemoryDocumentStore());

describe("SQL on SQLite", () => {
  let dir = "";
  let database: SqlDatabase | null = null;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fawn-documents-"));
    database = await openSqlDatabase(`sqlite:${join(dir, "fawn.db")}`);
  });
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });
  describeDocumentStore("sql (sqlite)", () => {
    if (database === null) throw new Error("the SQLite test database is not open");
    return new SqlDocumentStore(database);
  });
});

const postgres = await createPostgresTestDatabase("documents");
describe.skipIf(postgres === null)("SQL on PostgreSQL", () => {
  let database: SqlDatabase | null = null;
  beforeAll(async () => {
    if (postgres !== null) database = await openSqlDatabase(postgres.url);
  });
  afterAll(async () => {
    await database?.close();
    await postgres?.drop();
  });
  describeDocumentStore("sql (postgres)", () => {
    if (database === null) throw new Error("the PostgreSQL test database is not open");
    return new SqlDocumentStore(database);
  });
});
