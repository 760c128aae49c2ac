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
}
