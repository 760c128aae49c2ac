import { type Kysely, type Migration, type MigrationProvider, sql } from "kysely";
import { checkpointsMigration } from "./checkpoint/checkpoint-migration.js";
import { documentsMigration } from "./documents/documents-migration.js";
import { graphStoreMigration } from "./graph-store/graph-store-migration.js";
import type { SqlDialectName } from "./sql-dialect-name.js";

/** Column types that differ between the engines; see schema.ts for why each was chosen. */
interface ColumnTypes {
  timestamp: "timestamptz" | "text";
  json: "jsonb" | "text";
  boolean: "boolean" | "integer";
  bigint: "bigint" | "integer";
}

function columnTypes(dialect: SqlDialectName): ColumnTypes {
  return dialect === "postgres"
    ? { timestamp: "timestamptz", json: "jsonb", boolean: "boolean", bigint: "bigint" }
    : { timestamp: "text", json: "text", boolean: "integer", bigint: "integer" };
}

async function createRuns(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("runs")
    .addColumn("run_id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("thread_id", "varchar(64)", (c) => c.notNull())
    .addColumn("assistant_id", "varchar(128)")
    .addColumn("user_id", "varchar(64)")
    .addColumn("status", "varchar(20)", (c) => c.notNull().defaultTo("pending"))
    .addColumn("operation_kind", "varchar(32)", (c) => c.notNull().defaultTo("run"))
    .addColumn("idempotency_key", "varchar(255)")
    .addColumn("model_name", "varchar(128)")
    .addColumn("multitask_strategy", "varchar(20)", (c) => c.notNull().defaultTo("reject"))
    .addColumn("on_disconnect", "varchar(20)", (c) => c.notNull().defaultTo("cancel"))
    .addColumn("metadata_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn("kwargs_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn("error", "text")
    .addColumn("stop_reason", "varchar(50)")
    .addColumn("message_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("first_human_message", "text")
    .addColumn("last_ai_message", "text")
    .addColumn("total_input_tokens", t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn("total_output_tokens", t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn("total_tokens", t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn("llm_call_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lead_agent_tokens", t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn("subagent_tokens", t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn("middleware_tokens", t.bigint, (c) => c.notNull().defaultTo(0))
    .addColumn("token_usage_by_model", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn("follow_up_to_run_id", "varchar(64)")
    .addColumn("queued", t.boolean, (c) => c.notNull().defaultTo(sql`false`))
    .addColumn("owner_worker_id", "varchar(128)")
    .addColumn("lease_expires_at", t.timestamp)
    .addColumn("cancel_action", "varchar(20)")
    .addColumn("cancel_requested_at", t.timestamp)
    .addColumn("evidence_seal_state", "varchar(16)")
    .addColumn("evidence_seal_error", "text")
    .addColumn("evidence_upper_seq", t.bigint)
    .addColumn("evidence_event_count", t.bigint)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("ix_runs_thread_id").on("runs").column("thread_id").execute();
  await db.schema.createIndex("ix_runs_user_id").on("runs").column("user_id").execute();
  await db.schema
    .createIndex("ix_runs_thread_status")
    .on("runs")
    .columns(["thread_id", "status"])
    .execute();
  await db.schema.createIndex("ix_runs_lease").on("runs").column("lease_expires_at").execute();
  await db.schema
    .createIndex("uq_runs_idempotency_key")
    .on("runs")
    .column("idempotency_key")
    .unique()
    .execute();
  // The cross-process admission guarantee: at most one active, non-queued row per thread. Both
  // engines support partial indexes with this exact predicate (SQLite reads `false` as 0).
  await sql`create unique index uq_runs_thread_active on runs (thread_id)
    where status in ('pending', 'running') and queued = false`.execute(db);
}

async function createRunEvents(
  db: Kysely<unknown>,
  t: ColumnTypes,
  dialect: SqlDialectName,
): Promise<void> {
  await db.schema
    .createTable("run_events")
    .addColumn("id", dialect === "postgres" ? "bigint" : "integer", (c) =>
      dialect === "postgres"
        ? c.primaryKey().generatedByDefaultAsIdentity()
        : c.primaryKey().autoIncrement(),
    )
    .addColumn("thread_id", "varchar(64)", (c) => c.notNull())
    .addColumn("run_id", "varchar(64)", (c) => c.notNull())
    .addColumn("user_id", "varchar(64)")
    .addColumn("event_type", "varchar(32)", (c) => c.notNull())
    .addColumn("category", "varchar(16)", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("event_metadata", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("uq_events_thread_seq", ["thread_id", "seq"])
    .execute();
  await db.schema
    .createIndex("ix_events_run")
    .on("run_events")
    .columns(["thread_id", "run_id", "seq"])
    .execute();
  await db.schema
    .createIndex("ix_events_thread_cat_seq")
    .on("run_events")
    .columns(["thread_id", "category", "seq"])
    .execute();
  await db.schema.createIndex("ix_events_user_id").on("run_events").column("user_id").execute();
}

async function createThreadsMeta(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("threads_meta")
    .addColumn("thread_id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("user_id", "varchar(64)")
    .addColumn("assistant_id", "varchar(128)")
    .addColumn("display_name", "varchar(256)")
    .addColumn("status", "varchar(20)", (c) => c.notNull().defaultTo("idle"))
    .addColumn("metadata_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("ix_threads_user_id").on("threads_meta").column("user_id").execute();
  await db.schema
    .createIndex("ix_threads_assistant_id")
    .on("threads_meta")
    .column("assistant_id")
    .execute();
}

function initialMigration(dialect: SqlDialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await createRuns(db, t);
      await createRunEvents(db, t, dialect);
      await createThreadsMeta(db, t);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("threads_meta").ifExists().execute();
      await db.schema.dropTable("run_events").ifExists().execute();
      await db.schema.dropTable("runs").ifExists().execute();
    },
  };
}

/** Users, login sessions and API tokens for `auth.mode: local`. */
function usersMigration(dialect: SqlDialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("users")
        .addColumn("id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("email", "varchar(320)", (c) => c.notNull().unique())
        .addColumn("password_hash", "varchar(255)", (c) => c.notNull())
        .addColumn("token_version", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("auth_sessions")
        .addColumn("token_hash", "varchar(64)", (c) => c.primaryKey())
        .addColumn("user_id", "varchar(64)", (c) => c.notNull())
        .addColumn("token_version", "integer", (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("ix_auth_sessions_expires_at")
        .on("auth_sessions")
        .column("expires_at")
        .execute();
      await db.schema
        .createTable("api_tokens")
        .addColumn("id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("user_id", "varchar(64)", (c) => c.notNull())
        .addColumn("name", "varchar(128)", (c) => c.notNull())
        .addColumn("prefix", "varchar(32)", (c) => c.notNull())
        .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("ix_api_tokens_user_id")
        .on("api_tokens")
        .column("user_id")
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("api_tokens").ifExists().execute();
      await db.schema.dropTable("auth_sessions").ifExists().execute();
      await db.schema.dropTable("users").ifExists().execute();
    },
  };
}

/**
 * Failed-login counters (`login_failures`), so every process over the database enforces one
 * limit. Keys are SHA-256 hex of the counter's scope; `resets_at` is epoch milliseconds.
 */
function loginFailuresMigration(dialect: SqlDialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("login_failures")
        .addColumn("counter_key", "varchar(64)", (c) => c.primaryKey())
        .addColumn("failures", "integer", (c) => c.notNull())
        .addColumn("resets_at", t.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("ix_login_failures_resets_at")
        .on("login_failures")
        .column("resets_at")
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("login_failures").ifExists().execute();
    },
  };
}

/**
 * PostgreSQL: a GIN index for thread search, whose metadata filter is one containment
 * (`metadata_json @> filter`, see thread-metadata-filter.ts). SQLite compares per key and has
 * no such index: nothing to do there.
 */
function threadMetadataIndexMigration(dialect: SqlDialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== "postgres") return;
      await sql`create index ix_threads_meta_metadata on threads_meta
        using gin (metadata_json jsonb_path_ops)`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== "postgres") return;
      await sql`drop index if exists ix_threads_meta_metadata`.execute(db);
    },
  };
}

/**
 * Assistants and their immutable versions. Search filters on owner and graph in SQL; PostgreSQL
 * also decides metadata containment with the GIN index, SQLite compares metadata in JS.
 */
function assistantsMigration(dialect: SqlDialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("assistants")
        .addColumn("assistant_id", "varchar(128)", (c) => c.primaryKey())
        .addColumn("graph_id", "varchar(128)", (c) => c.notNull())
        .addColumn("name", "varchar(256)", (c) => c.notNull())
        .addColumn("description", "text")
        .addColumn("config_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("context_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("metadata_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("user_id", "varchar(64)")
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("ix_assistants_graph_id")
        .on("assistants")
        .column("graph_id")
        .execute();
      await db.schema
        .createIndex("ix_assistants_user_id")
        .on("assistants")
        .column("user_id")
        .execute();
      if (dialect === "postgres") {
        await sql`create index ix_assistants_metadata on assistants
          using gin (metadata_json jsonb_path_ops)`.execute(db);
      }
      await db.schema
        .createTable("assistant_versions")
        .addColumn("assistant_id", "varchar(128)", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("graph_id", "varchar(128)", (c) => c.notNull())
        .addColumn("name", "varchar(256)", (c) => c.notNull())
        .addColumn("description", "text")
        .addColumn("config_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("context_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("metadata_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("pk_assistant_versions", ["assistant_id", "version"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("assistant_versions").ifExists().execute();
      await db.schema.dropTable("assistants").ifExists().execute();
    },
  };
}

/**
 * Migrations live in code (no files read at runtime, so a bundled or compiled build needs nothing
 * beside it). Names sort lexically; append new ones, never edit an applied one.
 */
export function fawnMigrationProvider(dialect: SqlDialectName): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        "0001_initial": initialMigration(dialect),
        "0002_checkpoints": checkpointsMigration(dialect),
        "0003_users": usersMigration(dialect),
        "0004_login_failures": loginFailuresMigration(dialect),
        "0005_threads_metadata_index": threadMetadataIndexMigration(dialect),
        "0006_assistants": assistantsMigration(dialect),
        "0007_graph_store": graphStoreMigration(dialect),
        "0008_crons": cronsMigration(dialect),
        "0009_harness_documents": documentsMigration(dialect),
      };
    },
  };
}

export const MIGRATION_TABLE = "fawn_migration";
export const MIGRATION_LOCK_TABLE = "fawn_migration_lock";

/**
 * Scheduled runs (`crons`) and their firings (`cron_firings`): one row per (cron, tick) being or
 * having been fired. Its primary key is the firing's idempotency key: two processes claiming the
 * same tick meet on it, and a lease (`lease_expires_at`) lets a peer finish a dead claimant's
 * firing. Only a cron's newest completed firing is kept (it refuses a late claim of that tick).
 */
function cronsMigration(dialect: SqlDialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("crons")
        .addColumn("cron_id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("assistant_id", "varchar(128)", (c) => c.notNull())
        .addColumn("thread_id", "varchar(64)")
        .addColumn("user_id", "varchar(64)", (c) => c.notNull())
        .addColumn("schedule", "varchar(256)", (c) => c.notNull())
        .addColumn("timezone", "varchar(64)")
        .addColumn("payload_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("metadata_json", t.json, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn("on_run_completed", "varchar(16)")
        .addColumn("enabled", t.boolean, (c) => c.notNull().defaultTo(sql`true`))
        .addColumn("end_time", t.timestamp)
        .addColumn("next_run_date", t.timestamp)
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("ix_crons_user_id").on("crons").column("user_id").execute();
      await db.schema
        .createIndex("ix_crons_next_run_date")
        .on("crons")
        .column("next_run_date")
        .execute();
      await db.schema
        .createTable("cron_firings")
        .addColumn("cron_id", "varchar(64)", (c) => c.notNull())
        .addColumn("tick", t.timestamp, (c) => c.notNull())
        .addColumn("owner", "varchar(128)", (c) => c.notNull())
        .addColumn("lease_expires_at", t.timestamp, (c) => c.notNull())
        .addColumn("attempt", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("run_id", "varchar(64)")
        .addColumn("completed_at", t.timestamp)
        .addPrimaryKeyConstraint("pk_cron_firings", ["cron_id", "tick"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable("cron_firings").ifExists().execute();
      await db.schema.dropTable("crons").ifExists().execute();
    },
  };
}
