import type { CompiledQuery } from "kysely";
import { ConflictError } from "../../core/errors.js";
import {
  assertKnownStrategy,
  busyThreadError,
  planAdmission,
  runExistsError,
  supersededBy,
} from "../../ports/run-admission.js";
import { admittedRunRow } from "../../ports/run-row.js";
import type {
  AdmissionOptions,
  AdmissionResult,
  NewThreadOperation,
} from "../../ports/run-store.js";
import { ACTIVE_RUN_STATUSES, type RunRow } from "../../ports/run-types.js";
import { lockThreadAdmission } from "./advisory-locks.js";
import { secondsBefore, toDbTimestamp } from "./codec.js";
import type { SqlDatabase, SqlExecutor } from "./database.js";
import { type RunsInsert, type RunsRecord, runRowFromDb, runRowToDb } from "./run-row-codec.js";
import { isUniqueViolation, toStoreError } from "./sql-errors.js";
import { sqlStatement, sqlWordList } from "./sql-text.js";

/** A unique violation under interrupt/rollback/enqueue means a racing admission; retry this often. */
const UNIQUE_VIOLATION_RETRIES = 3;

function newRunInsert(
  input: NewThreadOperation,
  options: AdmissionOptions,
  queued: boolean,
): RunsInsert {
  return runRowToDb(admittedRunRow(input, options, queued));
}

/**
 * The admission's lease test, the comparison the takeover claims make in SQL: stored leases are
 * canonical ISO text, so they order as the instants they name.
 */
function leaseLiveAt(options: AdmissionOptions): (row: RunRow) => boolean {
  return (row) =>
    row.lease_expires_at !== null &&
    row.lease_expires_at >= secondsBefore(options.now, options.graceSeconds);
}

async function findByIdempotencyKey(trx: SqlExecutor, key: string): Promise<RunRow | null> {
  const record = await trx
    .selectFrom("runs")
    .selectAll()
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  return record === undefined ? null : runRowFromDb(record);
}

/** One admission attempt, inside a transaction. Throws ConflictError or a driver error. */
async function admitOnce(
  database: SqlDatabase,
  trx: SqlExecutor,
  input: NewThreadOperation,
  options: AdmissionOptions,
): Promise<AdmissionResult> {
  await lockThreadAdmission(trx, database.dialect, input.thread_id);
  if (input.idempotency_key != null) {
    const existing = await findByIdempotencyKey(trx, input.idempotency_key);
    if (existing !== null) return { kind: "idempotent_replay", row: existing };
  }
  const duplicate = await trx
    .selectFrom("runs")
    .select("run_id")
    .where("run_id", "=", input.run_id)
    .executeTakeFirst();
  if (duplicate !== undefined) throw runExistsError(input.run_id);

  const active = (
    await trx
      .selectFrom("runs")
      .selectAll()
      .where("thread_id", "=", input.thread_id)
      .where("status", "in", ACTIVE_RUN_STATUSES)
      .orderBy("created_at")
      .$if(database.dialect === "postgres", (qb) => qb.forUpdate())
      .execute()
  ).map(runRowFromDb);
  const plan = planAdmission(active, options, leaseLiveAt(options));
  const interrupted = await interruptRows(trx, plan.interrupt, options);
  const inserted = await trx
    .insertInto("runs")
    .values(newRunInsert(input, options, plan.queued))
    .returningAll()
    .executeTakeFirstOrThrow();
  return { kind: "admitted", row: runRowFromDb(inserted), interrupted };
}

async function interruptRows(
  trx: SqlExecutor,
  rows: RunRow[],
  options: AdmissionOptions,
): Promise<RunRow[]> {
  if (rows.length === 0) return [];
  const records: RunsRecord[] = await trx
    .updateTable("runs")
    .set({ ...supersededBy(options), updated_at: toDbTimestamp(options.now, "now") })
    .where(
      "run_id",
      "in",
      rows.map((row) => row.run_id),
    )
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .returningAll()
    .execute();
  // RETURNING has no defined order; report the rows oldest first, as they were found.
  const order = new Map(rows.map((row, index) => [row.run_id, index]));
  return records
    .map(runRowFromDb)
    .sort((a, b) => (order.get(a.run_id) ?? 0) - (order.get(b.run_id) ?? 0));
}

const insertIfIdleTexts = new Map<string, string>();

/**
 * The admission insert as SQL text, built once per column list: the row's values, then thread
 * id and run id (then the idempotency key) for the conditions.
 */
function insertIfIdleText(columns: readonly string[], withKey: boolean): string {
  const cacheKey = `${withKey}:${columns.join(",")}`;
  const cached = insertIfIdleTexts.get(cacheKey);
  if (cached !== undefined) return cached;
  const text = `insert into runs (${columns.join(", ")})
select ${columns.map(() => "?").join(", ")}
where not exists (select 1 from runs where thread_id = ? and status in ${sqlWordList(ACTIVE_RUN_STATUSES)})
and not exists (select 1 from runs where run_id = ?)${withKey ? "\nand not exists (select 1 from runs where idempotency_key = ?)" : ""}
returning *`;
  insertIfIdleTexts.set(cacheKey, text);
  return text;
}

/**
 * The common admission — an idle thread, a new run id, an unused idempotency key — as one write
 * transaction that needs no answer in between: on SQLite a single message to the worker instead
 * of five. The insert is conditional on exactly what `admitOnce` would check, so when it inserts,
 * every strategy would have admitted the run unqueued with nothing to interrupt; when it does not,
 * the caller runs `admitOnce` (a fresh transaction), which decides as before. SQLite only: there
 * BEGIN IMMEDIATE serializes it with every writer of the file, and SQLite binds parameters without
 * the typing PostgreSQL would need for an INSERT … SELECT of them.
 */
async function admitIfIdle(
  database: SqlDatabase,
  input: NewThreadOperation,
  options: AdmissionOptions,
): Promise<AdmissionResult | null> {
  const values = newRunInsert(input, options, false);
  const key = input.idempotency_key ?? null;
  const columns = Object.keys(values) as Array<keyof RunsInsert>;
  const statements: CompiledQuery[] = [];
  if (key !== null) {
    statements.push(
      sqlStatement(database.dialect, "select * from runs where idempotency_key = ?", [key]),
    );
  }
  const params: unknown[] = columns.map((column) => values[column]);
  params.push(input.thread_id, input.run_id);
  if (key !== null) params.push(key);
  statements.push(sqlStatement(database.dialect, insertIfIdleText(columns, key !== null), params));
  const results = await database.executeBatch(statements);
  if (key !== null) {
    const existing = results[0]?.rows[0] as RunsRecord | undefined;
    if (existing !== undefined) return { kind: "idempotent_replay", row: runRowFromDb(existing) };
  }
  const inserted = results.at(-1)?.rows[0] as RunsRecord | undefined;
  return inserted === undefined
    ? null
    : { kind: "admitted", row: runRowFromDb(inserted), interrupted: [] };
}

/**
 * `RunStore.createThreadOperation`: one transaction per attempt. The partial unique index
 * `uq_runs_thread_active` is the cross-process guarantee; the reads before the insert only make
 * the common conflicts explicit (and, on PostgreSQL, the thread's admission lock and FOR UPDATE
 * keep concurrent admissions from interleaving at all).
 */
export async function admitThreadOperation(
  database: SqlDatabase,
  input: NewThreadOperation,
  options: AdmissionOptions,
): Promise<AdmissionResult> {
  assertKnownStrategy(options.strategy);
  for (let attempt = 0; ; attempt++) {
    try {
      if (attempt === 0 && database.dialect === "sqlite") {
        const admitted = await admitIfIdle(database, input, options);
        if (admitted !== null) return admitted;
      }
      return await database.transaction((trx) => admitOnce(database, trx, input, options));
    } catch (error) {
      if (!isUniqueViolation(error)) throw toStoreError(error, "admit a thread operation");
      // A racing admission committed first. Its row is visible now: replay an idempotency key
      // it claimed, report a reject as busy, and give other strategies a few fresh attempts.
      if (input.idempotency_key != null) {
        const existing = await findByIdempotencyKey(database.executor(), input.idempotency_key);
        if (existing !== null) return { kind: "idempotent_replay", row: existing };
      }
      if (options.strategy === "reject") throw busyThreadError(input.thread_id);
      if (attempt >= UNIQUE_VIOLATION_RETRIES) {
        throw new ConflictError(
          `Thread ${input.thread_id} kept changing during admission; retry later.`,
          { cause: error },
        );
      }
    }
  }
}
