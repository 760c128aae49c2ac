import { completionSources, truncateConvenienceMessage } from "../../ports/run-row.js";
import type { OwnerScope } from "../../ports/run-store.js";
import {
  isActiveStatus,
  type RunCompletionData,
  type RunRow,
  type RunStatus,
} from "../../ports/run-types.js";

/** Run rows by id, with the insertion order that breaks ties between rows of the same instant. */
export class RunTable {
  private readonly rows = new Map<string, RunRow>();
  private readonly insertionOrder = new Map<string, number>();
  private nextInsertion = 0;

  get(runId: string): RunRow | undefined {
    return this.rows.get(runId);
  }

  has(runId: string): boolean {
    return this.rows.has(runId);
  }

  all(): RunRow[] {
    return [...this.rows.values()];
  }

  insert(row: RunRow): void {
    this.rows.set(row.run_id, row);
    this.insertionOrder.set(row.run_id, this.nextInsertion++);
  }

  /** Replaces a stored row, keeping its place in the insertion order. */
  replace(row: RunRow): void {
    this.rows.set(row.run_id, row);
  }

  remove(runId: string): void {
    this.rows.delete(runId);
    this.insertionOrder.delete(runId);
  }

  threadRows(threadId: string): RunRow[] {
    return this.all().filter((row) => row.thread_id === threadId);
  }

  findByIdempotencyKey(key: string): RunRow | undefined {
    for (const row of this.rows.values()) if (row.idempotency_key === key) return row;
    return undefined;
  }

  /** Older first: by `created_at`, then by insertion. */
  compareAge(a: RunRow, b: RunRow): number {
    const byTime = (parseUtc(a.created_at) ?? 0) - (parseUtc(b.created_at) ?? 0);
    if (byTime !== 0) return byTime;
    return (this.insertionOrder.get(a.run_id) ?? 0) - (this.insertionOrder.get(b.run_id) ?? 0);
  }

  /**
   * Rows passing `filter` created by `before` whose lease is NULL or expired, oldest first: the
   * recovery scans.
   */
  expiredLeaseRows(
    filter: (row: RunRow) => boolean,
    options: { before: string; now: string; graceSeconds: number },
  ): RunRow[] {
    const before = parseUtc(options.before) ?? Number.NEGATIVE_INFINITY;
    return this.all()
      .filter(filter)
      .filter((row) => (parseUtc(row.created_at) ?? Number.POSITIVE_INFINITY) <= before)
      .filter((row) => !isLeaseLive(row, options.now, options.graceSeconds))
      .sort((a, b) => this.compareAge(a, b))
      .map(copyRow);
  }
}

export function copyRow(row: RunRow): RunRow {
  return structuredClone(row);
}

export function holdsActiveSlot(row: RunRow): boolean {
  return isActiveStatus(row.status) && !row.queued;
}

export function ownedBy(row: RunRow, scope: OwnerScope): boolean {
  return scope.userId == null || row.user_id === scope.userId;
}

/** A finished user-visible run whose evidence was never sealed. */
export function isUnsealedTerminal(row: RunRow): boolean {
  return (
    row.operation_kind === "run" &&
    !isActiveStatus(row.status) &&
    row.evidence_seal_state === "pending"
  );
}

export function completionAllowed(from: RunStatus, to: RunStatus): boolean {
  return completionSources(to).includes(from);
}

export function applyCompletionData(row: RunRow, data: Partial<RunCompletionData>): void {
  const { first_human_message, last_ai_message, token_usage_by_model, ...counters } = data;
  for (const [key, value] of Object.entries(counters)) {
    if (typeof value === "number") Object.assign(row, { [key]: value });
  }
  if (token_usage_by_model !== undefined)
    row.token_usage_by_model = structuredClone(token_usage_by_model);
  if (first_human_message !== undefined) {
    row.first_human_message = truncateConvenienceMessage(first_human_message);
  }
  if (last_ai_message !== undefined) {
    row.last_ai_message = truncateConvenienceMessage(last_ai_message);
  }
}

/** A lease is live while `lease_expires_at >= now - grace`; NULL or unparseable is expired. */
export function isLeaseLive(row: RunRow, now: string, graceSeconds: number): boolean {
  const lease = row.lease_expires_at === null ? null : parseUtc(row.lease_expires_at);
  const reference = parseUtc(now);
  if (lease === null || reference === null) return false;
  return lease >= reference - graceSeconds * 1000;
}

const NAIVE_DATETIME = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/;

/** Milliseconds since the epoch; timestamps without a zone are UTC, as in the SQL stores. */
function parseUtc(value: string): number | null {
  const text = NAIVE_DATETIME.test(value) ? `${value.replace(" ", "T")}Z` : value;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}
