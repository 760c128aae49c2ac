import { type Kysely, type Migration, sql } from "kysely";
import type { SqlDialectName } from "../sql-dialect-name.js";

/**
 * Migration 0007: `graph_store_items`, the LangGraph store (`/store/*` and the graphs' `store`).
 * One row per (scope, namespace, key); `namespace` is the dot-joined labels (labels hold no
 * dot). `value` is JSON text on both engines: filters are evaluated by the store's shared rules,
 * not by SQL, and text keeps the value exactly as written. `expires_at`/`ttl_minutes` carry TTL.
 */
export function graphStoreMigration(dialect: SqlDialectName): Migration {
  // Byte order on PostgreSQL (its default collation may ignore punctuation), as SQLite compares.
  const orderedText = dialect === "postgres" ? sql`text collate "C"` : sql`text`;
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  const minutes = dialect === "postgres" ? "double precision" : "real";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("graph_store_items")
        .addColumn("scope", "varchar(64)", (c) => c.notNull())
        .addColumn("namespace", orderedText, (c) => c.notNull())
        .addColumn("key", orderedText, (c) => c.notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("updated_at", timestamp, (c) => c.notNull())
        .addColumn("ttl_minutes", minutes)
        .addColumn("expires_at", timestamp)
        .addPrimaryKeyConstraint("pk_graph_store_items", ["scope", "namespace", "key"])
        .execute();
      await db.schema
        .createIndex("ix_graph_store_items_updated")
        .on("graph_store_items")
        .columns(["scope", "updated_at"])
        .execute();
      await db.schema
        .createIndex("ix_graph_store_items_expires")
        .on("graph_store_items")
        .column("expires_at")
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("graph_store_items").ifExists().execute();
    },
  };
}
