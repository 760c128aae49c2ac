/**
 * The chaos checker: reads every run and its durable events straight from PostgreSQL and the
 * clients' stream records, and lists each broken guarantee: a run without exactly one
 * `run.terminal`, a terminal that disagrees with the run's status, a durable event after the
 * terminal, a stream that neither completed nor ended with an explicit `gap`, an event seen twice
 * on one stream, a stream that completed while its run was still active.
 */
import pg from "pg";
import type { StreamRecord } from "./stream-client.js";

export interface Violation {
  runId: string;
  problem: string;
}

export interface CheckResult {
  runs: number;
  byStatus: Record<string, number>;
  violations: Violation[];
}

const ACTIVE = new Set(["pending", "running"]);

interface RunRow {
  run_id: string;
  status: string;
}

interface EventRow {
  run_id: string;
  seq: string | number;
  event_type: string;
  content: string;
}

function terminalStatusOf(content: string): string | null {
  try {
    const parsed: unknown = JSON.parse(content);
    if (typeof parsed === "object" && parsed !== null && "status" in parsed) {
      return typeof parsed.status === "string" ? parsed.status : null;
    }
  } catch {
    // A terminal whose content is not JSON is itself a violation (status null).
  }
  return null;
}

/**
 * Runs not settled yet: still active, or ended with their evidence unsealed (the owner died
 * between its status commit and its terminal; a peer's recovery backfills it after the lease).
 */
export async function unsettledRunIds(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<RunRow>(
      "select run_id, status from runs where operation_kind = 'run' " +
        "and (status in ('pending', 'running') or evidence_seal_state = 'pending')",
    );
    return rows.map((row) => row.run_id);
  } finally {
    await client.end();
  }
}

function checkRunEvents(run: RunRow, events: EventRow[]): Violation[] {
  const found: Violation[] = [];
  const add = (problem: string) => found.push({ runId: run.run_id, problem });
  if (ACTIVE.has(run.status)) add(`still ${run.status} at the end`);
  const terminals = events.filter((event) => event.event_type === "run.terminal");
  if (terminals.length !== 1) {
    add(`${terminals.length} run.terminal events`);
    return found;
  }
  const [terminal] = terminals;
  if (!terminal) return found;
  const stated = terminalStatusOf(terminal.content);
  if (stated !== run.status) add(`terminal says ${stated}, run is ${run.status}`);
  const after = events.filter((event) => Number(event.seq) > Number(terminal.seq));
  if (after.length > 0) {
    add(`${after.length} durable event(s) after the terminal (${after[0]?.event_type})`);
  }
  return found;
}

function checkStream(stream: StreamRecord): Violation[] {
  const runId = stream.runId ?? "(not created)";
  const found: Violation[] = [];
  if (stream.outcome === "gave_up") {
    found.push({
      runId,
      problem: `stream neither complete nor gapped (last error: ${stream.lastError})`,
    });
  }
  if (stream.duplicateIds.length > 0) {
    found.push({ runId, problem: `${stream.duplicateIds.length} event(s) delivered twice` });
  }
  if (stream.outcome === "complete" && stream.statusAfterEnd && ACTIVE.has(stream.statusAfterEnd)) {
    found.push({ runId, problem: `stream ended while the run was ${stream.statusAfterEnd}` });
  }
  return found;
}

export async function checkChaos(
  databaseUrl: string,
  streams: readonly StreamRecord[],
): Promise<CheckResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: runs } = await client.query<RunRow>(
      "select run_id, status from runs where operation_kind = 'run'",
    );
    const { rows: events } = await client.query<EventRow>(
      "select run_id, seq, event_type, content from run_events order by run_id, seq",
    );
    const eventsByRun = new Map<string, EventRow[]>();
    for (const event of events) {
      const list = eventsByRun.get(event.run_id) ?? [];
      list.push(event);
      eventsByRun.set(event.run_id, list);
    }
    const byStatus: Record<string, number> = {};
    const violations: Violation[] = [];
    for (const run of runs) {
      byStatus[run.status] = (byStatus[run.status] ?? 0) + 1;
      violations.push(...checkRunEvents(run, eventsByRun.get(run.run_id) ?? []));
    }
    for (const stream of streams) violations.push(...checkStream(stream));
    return { runs: runs.length, byStatus, violations };
  } finally {
    await client.end();
  }
}
