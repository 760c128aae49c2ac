import type { ColumnType, Generated } from "kysely";

/**
 * Table shapes as Kysely sees them. Read types are unions because the two engines hand back
 * different JS values for the same logical column; `row-codec.ts` normalizes them.
 *
 * - Timestamps: PostgreSQL `timestamptz` (read as Date); SQLite TEXT holding the canonical
 *   `Date.toISOString()` form (fixed width, UTC), so text comparison orders like time.
 * - JSON: PostgreSQL `jsonb` (read as a value); SQLite TEXT (read as a JSON string).
 * - Booleans: PostgreSQL `boolean`; SQLite INTEGER 0/1 (the driver binds booleans as 0/1).
 * - bigint: PostgreSQL `int8` is read as a string by `pg`.
 */
export type TimestampColumn = ColumnType<Date | string, string, string>;
export type NullableTimestampColumn = ColumnType<
  Date | string | null,
  string | null,
  string | null
>;
export type JsonColumn = ColumnType<unknown, string, string>;
export type BooleanColumn = ColumnType<boolean | number, boolean, boolean>;
export type BigIntColumn = ColumnType<
  number | string | null,
  number | null | undefined,
  number | null
>;

export interface RunsTable {
  run_id: string;
  thread_id: string;
  assistant_id: string | null;
  user_id: string | null;
  status: string;
  operation_kind: string;
  idempotency_key: string | null;
  model_name: string | null;
  multitask_strategy: string;
  on_disconnect: string;
  metadata_json: JsonColumn;
  kwargs_json: JsonColumn;
  error: string | null;
  stop_reason: string | null;
  message_count: number;
  first_human_message: string | null;
  last_ai_message: string | null;
  total_input_tokens: number;
  total_output_tokens: number;
  total_tokens: number;
  llm_call_count: number;
  lead_agent_tokens: number;
  subagent_tokens: number;
  middleware_tokens: number;
  token_usage_by_model: JsonColumn;
  follow_up_to_run_id: string | null;
  queued: BooleanColumn;
  owner_worker_id: string | null;
  lease_expires_at: NullableTimestampColumn;
  cancel_action: string | null;
  cancel_requested_at: NullableTimestampColumn;
  evidence_seal_state: string | null;
  evidence_seal_error: string | null;
  evidence_upper_seq: BigIntColumn;
  evidence_event_count: BigIntColumn;
  created_at: TimestampColumn;
  updated_at: TimestampColumn;
}

export interface RunEventsTable {
  id: Generated<number>;
  thread_id: string;
  run_id: string;
  user_id: string | null;
  event_type: string;
  category: string;
  content: string;
  event_metadata: JsonColumn;
  seq: number;
  created_at: TimestampColumn;
}

export interface ThreadsMetaTable {
  thread_id: string;
  user_id: string | null;
  assistant_id: string | null;
  display_name: string | null;
  status: string;
  metadata_json: JsonColumn;
  created_at: TimestampColumn;
  updated_at: TimestampColumn;
}

export interface FawnTables {
  runs: RunsTable;
  run_events: RunEventsTable;
  threads_meta: ThreadsMetaTable;
  checkpoints: CheckpointsTable;
  checkpoint_blobs: CheckpointBlobsTable;
  checkpoint_lists: CheckpointListsTable;
  checkpoint_messages: CheckpointMessagesTable;
  checkpoint_writes: CheckpointWritesTable;
  users: UsersTable;
  auth_sessions: AuthSessionsTable;
  api_tokens: ApiTokensTable;
  login_failures: LoginFailuresTable;
  assistants: AssistantsTable;
  assistant_versions: AssistantVersionsTable;
  graph_store_items: GraphStoreItemsTable;
  crons: CronsTable;
  cron_firings: CronFiringsTable;
  harness_documents: HarnessDocumentsTable;
}

/** Serialized bytes: PostgreSQL `bytea` (read as Buffer), SQLite BLOB (read as Uint8Array). */
export type BytesColumn = ColumnType<Uint8Array, Uint8Array, Uint8Array>;
export type NullableBytesColumn = ColumnType<
  Uint8Array | null,
  Uint8Array | null,
  Uint8Array | null
>;

/**
 * Checkpoint tables (migration 0002, `checkpoint/checkpoint-migration.ts` explains the layout).
 * A checkpoint row holds only the header (ids, versions, metadata); channel values live in
 * `checkpoint_blobs`, one row per (channel, version), and list channels such as `messages` are
 * stored as `checkpoint_lists` edit scripts over `checkpoint_messages` rows stored once by content.
 */
export interface CheckpointsTable {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  checkpoint_type: string;
  /** The serialized checkpoint without `channel_values`. */
  checkpoint: BytesColumn;
  metadata_type: string;
  metadata: BytesColumn;
  /** JSON `{channel: list_id}` of the list channels this checkpoint shows (a delta base hint). */
  list_refs: string;
}

export interface CheckpointBlobsTable {
  thread_id: string;
  checkpoint_ns: string;
  channel: string;
  version: string;
  /** `value` (serialized in `value`), `list` (see `list_id`) or `empty` (channel had no value). */
  kind: string;
  value_type: string | null;
  value: NullableBytesColumn;
  list_id: string | null;
}

export interface CheckpointListsTable {
  list_id: string;
  thread_id: string;
  /** The list this one's script copies ranges from; null when the script is all literals. */
  base_id: string | null;
  length: number;
  /** JSON edit script: `[start, length]` copies a range of the base, a string is a message ref. */
  script: string;
}

export interface CheckpointMessagesTable {
  thread_id: string;
  message_hash: string;
  message_type: string;
  message: BytesColumn;
}

export interface CheckpointWritesTable {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  task_id: string;
  idx: number;
  channel: string;
  value_type: string;
  value: BytesColumn;
  task_path: string;
}

/**
 * `auth.mode: local` (migration 0003). Secrets are never stored in clear: `password_hash` is a
 * scrypt string, sessions and API tokens are keyed by the SHA-256 of the token.
 */
export interface UsersTable {
  id: string;
  /** Normalized (trimmed, lower case) by the account service; unique. */
  email: string;
  password_hash: string;
  token_version: number;
  created_at: TimestampColumn;
}

export interface AuthSessionsTable {
  token_hash: string;
  user_id: string;
  token_version: number;
  created_at: TimestampColumn;
  expires_at: TimestampColumn;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  token_hash: string;
  created_at: TimestampColumn;
}

/** Failed-login counters (migration 0004); `resets_at` in epoch milliseconds. */
export interface LoginFailuresTable {
  counter_key: string;
  failures: number;
  resets_at: ColumnType<number | string, number, number>;
}

/** Assistants (migration 0006): the version in use, owner-scoped when `user_id` is set. */
export interface AssistantsTable {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config_json: JsonColumn;
  context_json: JsonColumn;
  metadata_json: JsonColumn;
  version: number;
  user_id: string | null;
  created_at: TimestampColumn;
  updated_at: TimestampColumn;
}

/** Immutable assistant versions (migration 0006), keyed by (assistant_id, version). */
export interface AssistantVersionsTable {
  assistant_id: string;
  version: number;
  graph_id: string;
  name: string;
  description: string | null;
  config_json: JsonColumn;
  context_json: JsonColumn;
  metadata_json: JsonColumn;
  created_at: TimestampColumn;
}

/**
 * The LangGraph store (migration 0007): one row per (scope, dot-joined namespace, key); `value`
 * is JSON text on both engines; `expires_at` is null for an item without TTL.
 */
export interface GraphStoreItemsTable {
  scope: string;
  namespace: string;
  key: string;
  value: string;
  created_at: TimestampColumn;
  updated_at: TimestampColumn;
  ttl_minutes: number | null;
  expires_at: NullableTimestampColumn;
}

/** Scheduled runs (migration 0008). */
export interface CronsTable {
  cron_id: string;
  assistant_id: string;
  thread_id: string | null;
  user_id: string;
  schedule: string;
  timezone: string | null;
  payload_json: JsonColumn;
  metadata_json: JsonColumn;
  on_run_completed: string | null;
  enabled: BooleanColumn;
  end_time: NullableTimestampColumn;
  next_run_date: NullableTimestampColumn;
  created_at: TimestampColumn;
  updated_at: TimestampColumn;
}

/** One (cron, tick) being fired under a lease, or fired (migration 0008). */
export interface CronFiringsTable {
  cron_id: string;
  tick: TimestampColumn;
  owner: string;
  lease_expires_at: TimestampColumn;
  attempt: number;
  run_id: string | null;
  completed_at: NullableTimestampColumn;
}

/** The harness's per-owner JSON documents (migration 0009); `value` is JSON text. */
export interface HarnessDocumentsTable {
  collection: string;
  owner: string;
  key: string;
  value: string;
  revision: number;
  created_at: TimestampColumn;
  updated_at: TimestampColumn;
}
