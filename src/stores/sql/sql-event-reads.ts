import { type Expression, type SqlBool, sql } from "kysely";
import type {
  EvidenceReceipt,
  ListEventsOptions,
  ListMessagesOptions,
  RunEvent,
} from "../../ports/run-event-store.js";
import { toNumber } from "./codec.js";
import type { SqlDatabase } from "./database.js";
import { runEventFromDb } from "./event-codec.js";
import type { SqlDialectName } from "./sql-dialect-name.js";
import { sqlStatement } from "./sql-text.js";

/** The reads of `SqlRunEventStore`; none takes a lock (a read sees committed batches whole). */

const DEFAULT_EVENT_LIMIT = 500;
const DEFAULT_MESSAGE_LIMIT = 50;

export async function listEvents(
  database: SqlDatabase,
  threadId: string,
  runId: string,
  options: ListEventsOptions,
): Promise<RunEvent[]> {
  const limit = options.limit ?? DEFAULT_EVENT_LIMIT;
  if (limit <= 0 || options.eventTypes?.length === 0) return [];
  const records = await database
    .executor()
    .selectFrom("run_events")
    .selectAll()
    .where("thread_id", "=", threadId)
    .where("run_id", "=", runId)
    .$if(options.eventTypes !== undefined, (qb) =>
      qb.where("event_type", "in", options.eventTypes ?? []),
    )
    .$if(options.taskId !== undefined, (qb) =>
      qb.where(metadataStringEquals(database.dialect, "task_id", options.taskId ?? "")),
    )
    .$if(options.afterSeq !== undefined, (qb) => qb.where("seq", ">", options.afterSeq ?? 0))
    .$if(options.userId != null, (qb) => qb.where("user_id", "=", options.userId ?? null))
    .orderBy("seq")
    .limit(limit)
    .execute();
  return records.map(runEventFromDb);
}

/**
 * `message` rows of the thread (or of one run), ascending. `afterSeq` alone pages forward from a
 * cursor (the first `limit` above it); otherwise the window ends at the newest match (the last
 * `limit`).
 */
export async function windowMessages(
  database: SqlDatabase,
  threadId: string,
  runId: string | null,
  options: ListMessagesOptions,
): Promise<RunEvent[]> {
  const limit = options.limit ?? DEFAULT_MESSAGE_LIMIT;
  if (limit <= 0) return [];
  const forward = options.afterSeq !== undefined && options.beforeSeq === undefined;
  const records = await database
    .executor()
    .selectFrom("run_events")
    .selectAll()
    .where("thread_id", "=", threadId)
    .where("category", "=", "message")
    .$if(runId !== null, (qb) => qb.where("run_id", "=", runId ?? ""))
    .$if(options.beforeSeq !== undefined, (qb) => qb.where("seq", "<", options.beforeSeq ?? 0))
    .$if(options.afterSeq !== undefined, (qb) => qb.where("seq", ">", options.afterSeq ?? 0))
    .$if(options.userId != null, (qb) => qb.where("user_id", "=", options.userId ?? null))
    .orderBy("seq", forward ? "asc" : "desc")
    .limit(limit)
    .execute();
  const events = records.map(runEventFromDb);
  return forward ? events : events.reverse();
}

export async function countMessages(database: SqlDatabase, threadId: string): Promise<number> {
  const result = await database
    .executor()
    .selectFrom("run_events")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("thread_id", "=", threadId)
    .where("category", "=", "message")
    .executeTakeFirst();
  return toNumber(result?.count);
}

export async function evidenceReceipt(
  database: SqlDatabase,
  threadId: string,
  runId: string,
): Promise<EvidenceReceipt> {
  const { rows } = await database.executor().executeQuery<{
    upper: number | string | null;
    count: number | string;
  }>(
    sqlStatement(
      database.dialect,
      "select max(seq) as upper, count(*) as count from run_events where thread_id = ? and run_id = ?",
      [threadId, runId],
    ),
  );
  const [result] = rows;
  return { upperEventSeq: toNumber(result?.upper), eventCount: toNumber(result?.count) };
}

/** `metadata[key]` is the JSON string `value` (a number 5 does not match "5"). */
function metadataStringEquals(
  dialect: SqlDialectName,
  key: string,
  value: string,
): Expression<SqlBool> {
  if (dialect === "postgres") {
    return sql<SqlBool>`event_metadata -> ${key} = to_jsonb(${value}::text)`;
  }
  const path = `$.${key}`;
  return sql<SqlBool>`(json_type(event_metadata, ${path}) = 'text' and json_extract(event_metadata, ${path}) = ${value})`;
}
