import { isUrgent } from "../../core/async/urgency.js";
import type { ConnectionLock } from "./connection-lock.js";
import { isSqliteBusy } from "./sql-errors.js";
import { withBusyRetry } from "./sqlite-busy-retry.js";
import { type SqliteWorkerClient, SqliteWorkerError } from "./sqlite-worker-client.js";
import type { SqliteQueryReply, SqliteStatement } from "./sqlite-worker-protocol.js";

/** A self-contained batch waiting for the connection, with its caller's settle functions. */
interface QueuedBatch {
  statements: SqliteStatement[];
  resolve(replies: SqliteQueryReply[]): void;
  reject(error: unknown): void;
}

/**
 * Self-contained batches (`executeBatch`: each its own write transaction) waiting for the one
 * SQLite connection, in two lanes like the lock's (urgent inside `runUrgent`, else ordinary).
 * Batches that queue up while the connection is busy go together: the lane's next turn sends every
 * batch waiting in it as one message (each still its own transaction, a failed one rolled back
 * alone), so under load a run's self-contained writes — journal batches, checkpoint puts, pending
 * writes — cost one round trip of the connection between them rather than one each. Nothing is
 * posted while another caller holds the lock (see DECISIONS.md, "SQLite worker").
 */
export class SqliteBatchQueue {
  private readonly urgent: QueuedBatch[] = [];
  private readonly ordinary: QueuedBatch[] = [];

  constructor(
    private readonly lock: ConnectionLock,
    private readonly client: () => SqliteWorkerClient | null,
  ) {}

  run(statements: SqliteStatement[]): Promise<SqliteQueryReply[]> {
    const lane = isUrgent() ? this.urgent : this.ordinary;
    return new Promise((resolve, reject) => {
      lane.push({ statements, resolve, reject });
      // The first batch of an empty lane asks for the connection; later ones ride along.
      if (lane.length === 1) void this.send(lane);
    });
  }

  private async send(lane: QueuedBatch[]): Promise<void> {
    let release: (() => void) | null = null;
    let taken: QueuedBatch[] = [];
    try {
      release = await this.lock.lock();
      taken = lane.splice(0);
      const client = this.client();
      if (client === null) throw new Error("The SQLite driver is not initialized.");
      const alone: QueuedBatch[] = [];
      const [only] = taken;
      if (only !== undefined && taken.length === 1) {
        alone.push(only);
      } else {
        const outcomes = await client.batches(taken.map((batch) => batch.statements));
        taken.forEach((batch, index) => {
          const outcome = outcomes[index];
          if (outcome === undefined) batch.reject(new Error("The SQLite worker skipped a batch."));
          else if (outcome.ok) batch.resolve(outcome.replies);
          else if (isSqliteBusy(new SqliteWorkerError(outcome.error))) alone.push(batch);
          else batch.reject(new SqliteWorkerError(outcome.error));
        });
      }
      // A lone batch, or one that met a busy database, goes on its own with the busy retries.
      for (const batch of alone) {
        await withBusyRetry(() => client.batch(batch.statements), isSqliteBusy).then(
          (replies) => batch.resolve(replies),
          (error: unknown) => batch.reject(error),
        );
      }
    } catch (error) {
      for (const batch of taken.length > 0 ? taken : lane.splice(0)) batch.reject(error);
    } finally {
      release?.();
    }
  }
}
