import { type Kysely, type Migration, sql } from "kysely";
import type { SqlDialectName } from "../sql-dialect-name.js";

/**
 * Migration 0002: the checkpoint saver's tables.
 *
 * Layout (why it grows linearly with a conversation):
 * - `checkpoints`: one small header row per checkpoint (versions, metadata), never the values.
 * - `checkpoint_blobs`: one row per (thread, ns, channel, version), so a channel that did not
 *   change is never written again.
 * - `checkpoint_lists` + `checkpoint_messages`: a list channel (`messages`) version is an edit
 *   script over another list (usually the parent's) and message rows stored once per thread by
 *   content hash, so appending a message costs the message plus a few bytes of script.
 * - `checkpoint_writes`: pending writes per checkpoint and task.
 *
 * Every table leads with `thread_id`, so deleting a thread is one indexed delete per table.
 */
export function checkpointsMigration(dialect: SqlDialectName): Migration {
  const bytes = dialect === "postgres" ? "bytea" : "blob";
  // Checkpoint ids (uuid6) order by time only under byte order; PostgreSQL's default collation
  // may ignore punctuation, so pin "C" there. SQLite compares text bytewise already.
  const orderedId = dialect === "postgres" ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("checkpoints")
        .addColumn("thread_id", "text", (c) => c.notNull())
        .addColumn("checkpoint_ns", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("checkpoint_id", orderedId, (c) => c.notNull())
        .addColumn("parent_checkpoint_id", "text")
        .addColumn("checkpoint_type", "text", (c) => c.notNull())
        .addColumn("checkpoint", bytes, (c) => c.notNull())
        .addColumn("metadata_type", "text", (c) => c.notNull())
        .addColumn("metadata", bytes, (c) => c.notNull())
        .addColumn("list_refs", "text", (c) => c.notNull().defaultTo("{}"))
        .addPrimaryKeyConstraint("pk_checkpoints", ["thread_id", "checkpoint_ns", "checkpoint_id"])
        .execute();
      await db.schema
        .createTable("checkpoint_blobs")
        .addColumn("thread_id", "text", (c) => c.notNull())
        .addColumn("checkpoint_ns", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("channel", "text", (c) => c.notNull())
        .addColumn("version", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("value_type", "text")
        .addColumn("value", bytes)
        .addColumn("list_id", "text")
        .addPrimaryKeyConstraint("pk_checkpoint_blobs", [
          "thread_id",
          "checkpoint_ns",
          "channel",
          "version",
        ])
        .execute();
      await db.schema
        .createTable("checkpoint_lists")
        .addColumn("list_id", "text", (c) => c.primaryKey())
        .addColumn("thread_id", "text", (c) => c.notNull())
        .addColumn("base_id", "text")
        .addColumn("length", "integer", (c) => c.notNull())
        .addColumn("script", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("ix_checkpoint_lists_thread")
        .on("checkpoint_lists")
        .column("thread_id")
        .execute();
      await db.schema
        .createTable("checkpoint_messages")
        .addColumn("thread_id", "text", (c) => c.notNull())
        .addColumn("message_hash", "text", (c) => c.notNull())
        .addColumn("message_type", "text", (c) => c.notNull())
        .addColumn("message", bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint("pk_checkpoint_messages", ["thread_id", "message_hash"])
        .execute();
      await db.schema
        .createTable("checkpoint_writes")
        .addColumn("thread_id", "text", (c) => c.notNull())
        .addColumn("checkpoint_ns", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("checkpoint_id", "text", (c) => c.notNull())
        .addColumn("task_id", "text", (c) => c.notNull())
        .addColumn("idx", "integer", (c) => c.notNull())
        .addColumn("channel", "text", (c) => c.notNull())
        .addColumn("value_type", "text", (c) => c.notNull())
        .addColumn("value", bytes, (c) => c.notNull())
        .addColumn("task_path", "text", (c) => c.notNull().defaultTo(""))
        .addPrimaryKeyConstraint("pk_checkpoint_writes", [
          "thread_id",
          "checkpoint_ns",
          "checkpoint_id",
          "task_id",
          "idx",
        ])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        "checkpoint_writes",
        "checkpoint_messages",
        "checkpoint_lists",
        "checkpoint_blobs",
        "checkpoints",
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
