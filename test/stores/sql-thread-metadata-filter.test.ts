/**
 * Thread search by metadata on PostgreSQL: one containment (`metadata_json @> filter`) that the
 * GIN index serves, with exactly the JSON-equality semantics of the per-key form (a nested
 * object or array must equal, not merely contain, the filter's value). SQLite answers the same.
 */
import { randomUUID } from "node:crypto";
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlDatabase, type SqlDatabase } from "../../src/stores/sql/database.js";
import { SqlThreadStore } from "../../src/stores/sql/sql-thread-store.js";
import { metadataFilter } from "../../src/stores/sql/thread-metadata-filter.js";
import { createPostgresTestDatabase } from "../helpers/postgres.js";

const testDatabase = await createPostgresTestDatabase("metadata_filter");

const ROWS: Array<[string, Record<string, unknown>]> = [
  ["scalar", { tag: "t", n: 1, s: "x", flag: true, none: null }],
  ["float", { tag: "t", n: 1.0, s: ["x"] }],
  ["nested", { tag: "t", cfg: { a: 1, b: 2 }, list: [1, 2] }],
  ["exact-nested", { tag: "t", cfg: { a: 1 }, list: [1] }],
  ["missing", { tag: "t" }],
];

function suite(name: string, open: () => Promise<SqlDatabase>): void {
  describe(name, () => {
    let database: SqlDatabase;
    let store: SqlThreadStore;
    const ids = new Map<string, string>();
    const names = (rows: Array<{ thread_id: string }>) =>
      rows.map((row) => [...ids].find(([, id]) => id === row.thread_id)?.[0] ?? "?").sort();

    beforeAll(async () => {
      database = await open();
      store = new SqlThreadStore(database);
      for (const [label, metadata] of ROWS) {
        const threadId = randomUUID();
        ids.set(label, threadId);
        await store.create({ thread_id: threadId, metadata, created_at: new Date().toISOString() });
      }
    });
    afterAll(async () => {
      await database?.close();
    });

    it.each([
      [{ tag: "t", n: 1 }, ["float", "scalar"]],
      [{ tag: "t", s: "x" }, ["scalar"]],
      [{ tag: "t", s: ["x"] }, ["float"]],
      [{ tag: "t", flag: true }, ["scalar"]],
      [{ tag: "t", none: null }, ["scalar"]],
      [{ tag: "t", cfg: { a: 1 } }, ["exact-nested"]],
      [{ tag: "t", cfg: { b: 2, a: 1 } }, ["nested"]],
      [{ tag: "t", list: [1] }, ["exact-nested"]],
      [{ tag: "t", list: [2, 1] }, []],
      [{ tag: "t" }, ["exact-nested", "float", "missing", "nested", "scalar"]],
    ])("metadata %j matches %j", async (filter, expected) => {
      expect(names(await store.search({ metadata: filter, limit: 100 }))).toEqual(expected);
      expect(await store.count({ metadata: filter })).toBe(expected.length);
    });
  });
}

suite("SQLite", () => openSqlDatabase("sqlite::memory:"));

describe.skipIf(testDatabase === null)("PostgreSQL", () => {
  afterAll(async () => {
    await testDatabase?.drop();
  });

  suite("PostgreSQL semantics", () => {
    if (testDatabase === null) throw new Error("no PostgreSQL test database");
    return openSqlDatabase(testDatabase.url);
  });

  it("evaluates a 32-key filter as one containment the GIN index serves", async () => {
    if (testDatabase === null) throw new Error("no PostgreSQL test database");
    const database = await openSqlDatabase(testDatabase.url);
    try {
      const filter = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, i]));
      const { conditions, exact } = metadataFilter("postgres", filter);
      expect({ conditions: conditions.length, exact }).toEqual({ conditions: 1, exact: true });
      let query = database.db.selectFrom("threads_meta").selectAll();
      for (const condition of conditions) query = query.where(condition);
      const compiled = query.compile();
      const plan = await database.transaction(async (trx) => {
        // Tiny table: the planner would scan it anyway; forbid that to see the index is usable.
        await sql`set local enable_seqscan = off`.execute(trx);
        const result = await trx.executeQuery<{ "QUERY PLAN": string }>(
          CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
        );
        return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
      });
      expect(plan).toContain("ix_threads_meta_metadata");
    } finally {
      await database.close();
    }
  });
});
