import { type Kysely, type Migration, sql } from "kysely";
import type { SqlDialectName } from "../sql-dialect-name.js";

/**
 * Migration 0009: `harness_documents`, the harness's per-owner JSON documents (memory, custom
 * agents, skills). `value` is JSON text on both engines (kept exactly as written); `revision`
 * is the optimistic-concurrency counter a write must name.
 */
export function documentsMigration(dialect: SqlDialectName): Migration {
  // Byte order on PostgreSQL, as SQLite compares, so key-prefix listing orders alike.
  const orderedText = dialect === "postgres" ? sql`varchar(128) collate "C"` : sql`varchar(128)`;
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("harness_documents")
        .addColumn("collection", "varchar(128)", (c) => c.notNull())
        .addColumn("owner", "varchar(128)", (c) => c.notNull())
        .addColumn("key", orderedText, (c) => c.notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("revision", "integer", (c) => c.notNull())
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("updated_at", timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("pk_harness_documents", ["collection", "owner", "key"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("harness_documents").execute();
    },
  };
}
