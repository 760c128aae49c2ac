/**
 * The read side of a run's Redis stream. Each poll is one snapshot on the shared command
 * connection; only when it shows nothing new does the subscriber block — on a connection of its
 * own, because a blocking XREAD would stall every other command queued behind it on a shared one.
 * The blocking read is only a wake-up: what to deliver is always decided by the next snapshot.
 */
import type { Redis } from "ioredis";
import { sleep } from "../../core/async/deadline.js";
import { isFawnError, StoreError } from "../../core/errors.js";
import type { StreamItem, SubscribeOptions } from "../../ports/stream-bridge.js";
import { isTransientRedisError } from "./redis-errors.js";
import { readSnapshot } from "./stream-snapshot.js";
import {
  afterEvent,
  initialPosition,
  nextStep,
  type Position,
  readStart,
} from "./subscription-position.js";

export interface SubscriptionHost {
  readonly runId: string;
  readonly key: string;
  /** The bridge's shared connection; snapshots are short non-blocking reads. */
  readonly commands: Redis;
  /** True once the bridge is closed: subscribers stop quietly. */
  isClosed(): boolean;
  /** A new connection for this subscriber's blocking reads (the bridge disconnects it on close). */
  openBlockingConnection(): Redis;
  releaseBlockingConnection(connection: Redis): void;
}

const DEFAULT_HEARTBEAT_MS = 15_000;
/** Consecutive transient failures retried before the subscription gives up and throws. */
const MAX_RETRIES = 3;
const BACKOFF_BASE_MS = 100;

type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function attempt<T>(work: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error };
  }
}

export async function* subscribeToStream(
  host: SubscriptionHost,
  options: SubscribeOptions = {},
): AsyncGenerator<StreamItem> {
  const { signal } = options;
  // BLOCK 0 would mean "forever" to Redis; a heartbeat interval is at least 1 ms.
  const heartbeatMs = Math.max(1, Math.ceil(options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS));
  const stopped = (): boolean => host.isClosed() || (signal?.aborted ?? false);
  let position: Position = initialPosition(options.lastEventId, options.fromFirst === true);
  let failures = 0;
  let blocking: Redis | undefined;

  /** Backs off after a transient failure; throws when the failure is not transient or too many came in a row. */
  const recover = async (error: unknown): Promise<void> => {
    failures += 1;
    if (!isTransientRedisError(error) || failures > MAX_RETRIES) {
      throw asStoreError(error, host.runId, failures);
    }
    const delay = Math.min(BACKOFF_BASE_MS * 2 ** (failures - 1), heartbeatMs);
    // An abort cuts the pause short; the loop condition then ends the iteration.
    await sleep(delay, signal).catch(() => undefined);
  };

  try {
    while (!stopped()) {
      const polled = await attempt(() =>
        readSnapshot(host.commands, host.key, host.runId, readStart(position)),
      );
      if (!polled.ok) {
        if (stopped()) return;
        await recover(polled.error);
        continue;
      }
      failures = 0;
      const snapshot = polled.value;
      const step = nextStep(position, snapshot);
      if (step.kind === "gap") {
        yield { kind: "gap", gap: step.gap };
        return;
      }
      position = step.position;
      for (const entry of step.entries) {
        if (stopped()) return;
        if (entry.kind === "end") {
          yield { kind: "end" };
          return;
        }
        yield { kind: "event", event: entry.event };
        position = afterEvent(entry);
      }
      // A full batch may have more behind it: poll again before considering a wait.
      if (step.entries.length > 0) continue;
      // Nothing after our position and the newest entry is the end marker: we are past it.
      if (snapshot.newest[0]?.kind === "end") {
        yield { kind: "end" };
        return;
      }
      if (stopped()) return;
      blocking ??= host.openBlockingConnection();
      const connection = blocking;
      // No entries were delivered, so the position is still the step's.
      const after = step.position.after;
      const woke = await attempt(() =>
        waitForNews(connection, host.key, after, heartbeatMs, signal),
      );
      if (!woke.ok) {
        // A broken or aborted blocking connection is not reused; a retry opens a fresh one.
        host.releaseBlockingConnection(connection);
        blocking = undefined;
        if (stopped()) return;
        await recover(woke.error);
        continue;
      }
      failures = 0;
      if (woke.value === "timeout" && !stopped()) yield { kind: "heartbeat" };
    }
  } finally {
    if (blocking) host.releaseBlockingConnection(blocking);
  }
}

/**
 * Blocks until an entry after `after` exists or `ms` pass. An abort disconnects the connection,
 * which rejects the pending read at once instead of letting it run out its BLOCK time.
 */
async function waitForNews(
  connection: Redis,
  key: string,
  after: string,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<"news" | "timeout"> {
  const onAbort = (): void => connection.disconnect();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const reply = await connection.xread("COUNT", 1, "BLOCK", ms, "STREAMS", key, after);
    return reply === null ? "timeout" : "news";
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

function asStoreError(error: unknown, runId: string, failures: number): Error {
  // Our own errors (say, an entry that is not ours) already say what is wrong.
  if (isFawnError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  const what = isTransientRedisError(error)
    ? `failed ${failures} times in a row`
    : "was refused by the server";
  return new StoreError(`Reading the Redis stream of run ${runId} ${what}: ${reason}`, {
    cause: error,
  });
}
