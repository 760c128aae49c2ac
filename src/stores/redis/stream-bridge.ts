/**
 * The cross-process stream bridge: one Redis stream per run, so any `fawn serve` process can
 * publish a run's events and any other can serve them, including `Last-Event-ID` resumes. Event
 * ids are the Redis entry ids tagged with the stream's epoch (stream-ids), so a cursor from a
 * stream Redis lost is never taken for a position in its successor. Layout, writes and reads live
 * in the neighbouring modules: stream-entries (entry format), stream-scripts (atomic appends),
 * subscription (the read loop; `watch` pushes its items), producer-lease (the lease hash).
 */
import { hostname } from "node:os";
import type { Redis } from "ioredis";
import { type Clock, systemClock } from "../../core/clock.js";
import { ConfigError, describeError, isFawnError, StoreError } from "../../core/errors.js";
import type { StoreHealth } from "../../ports/store-database.js";
import type {
  ProducerOwner,
  StreamBridge,
  StreamItem,
  StreamWatch,
  SubscribeOptions,
  WatchItem,
} from "../../ports/stream-bridge.js";
import { watchFromSubscribe } from "../../ports/watch-from-subscribe.js";
import { type FencedWrite, ownershipLost } from "../../ports/write-fence.js";
import {
  closeConnection,
  openConnection,
  type RedisClientFactory,
  urlClientFactory,
} from "./connections.js";
import {
  finishLease,
  type LeaseTarget,
  type RedisProducerLease,
  readLease,
  startLease,
  transferLease,
} from "./producer-lease.js";
import { encodeEventData } from "./stream-entries.js";
import { formatEventId, newEpoch } from "./stream-ids.js";
import {
  PUBLISH_END,
  PUBLISH_EVENT,
  PUBLISH_FENCED_END,
  PUBLISH_FENCED_EVENT,
} from "./stream-scripts.js";
import { subscribeToStream } from "./subscription.js";

interface CommonOptions {
  /** Prepended to every key (default `fawn:stream:`); tests use a unique one per file. */
  keyPrefix?: string;
  /** Events retained per run (default 256); a cursor older than the window gets a gap. */
  queueMaxSize?: number;
  /** Expiry of a run's keys, refreshed by every write (default 86 400; 0 = never expire). */
  streamTtlSeconds?: number;
  clock?: Clock;
  /** Recorded in the producer lease as the starting process (default `host:pid`). */
  instanceName?: string;
}

export type RedisStreamBridgeOptions = CommonOptions &
  (
    | { url: string }
    /** Called once for the shared connection and once per blocking subscriber. */
    | { createClient: RedisClientFactory }
  );

export const DEFAULT_REDIS_STREAM_KEY_PREFIX = "fawn:stream:";
const DEFAULT_QUEUE_MAX_SIZE = 256;
const DEFAULT_STREAM_TTL_SECONDS = 86_400;
/** A PING that takes longer than this reports Redis down (readiness). */
const HEALTH_TIMEOUT_MS = 2000;

interface PendingCleanup {
  timer: NodeJS.Timeout;
  settle: () => void;
}

export class RedisStreamBridge implements StreamBridge {
  readonly supportsCrossProcess = true;
  private readonly factory: RedisClientFactory;
  private readonly commands: Redis;
  private readonly keyPrefix: string;
  private readonly queueMaxSize: number;
  private readonly ttlSeconds: number;
  private readonly clock: Clock;
  private readonly instanceName: string;
  private readonly subscriberConnections = new Set<Redis>();
  private readonly pendingCleanups = new Set<PendingCleanup>();
  /** Lease transfers are fire-and-forget (the contract's call is synchronous); finish and close await them. */
  private readonly pendingTransfers = new Map<string, Promise<void>>();
  private isClosed = false;
  private closing: Promise<void> | undefined;

  constructor(options: RedisStreamBridgeOptions) {
    this.queueMaxSize = positiveInteger(
      "queueMaxSize",
      options.queueMaxSize,
      DEFAULT_QUEUE_MAX_SIZE,
    );
    this.ttlSeconds = ttlSeconds(options.streamTtlSeconds);
    this.keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_STREAM_KEY_PREFIX;
    if (this.keyPrefix === "") {
      throw new ConfigError("Redis stream bridge keyPrefix must not be empty.");
    }
    this.clock = options.clock ?? systemClock;
    this.instanceName = options.instanceName ?? `${hostname()}:${process.pid}`;
    this.factory = "url" in options ? urlClientFactory(options.url) : options.createClient;
    this.commands = openConnection(this.factory, "commands");
  }

  async publish(
    runId: string,
    event: string,
    data: unknown,
    options: FencedWrite = {},
  ): Promise<string> {
    const json = encodeEventData(data);
    const { fence } = options;
    const reply = await this.command("publish to", runId, () =>
      fence
        ? PUBLISH_FENCED_EVENT.run(
            this.commands,
            [...this.keysOf(runId), this.writerKey(runId)],
            [this.queueMaxSize, this.ttlSeconds, event, json, fence.workerId, newEpoch()],
          )
        : PUBLISH_EVENT.run(this.commands, this.keysOf(runId), [
            this.queueMaxSize,
            this.ttlSeconds,
            event,
            json,
            newEpoch(),
          ]),
    );
    if (fence && reply === 0) throw ownershipLost(fence, "publish to the stream");
    if (!Array.isArray(reply) || typeof reply[0] !== "string" || typeof reply[1] !== "string") {
      throw new StoreError(`Redis answered a publish to run ${runId} without an entry id.`);
    }
    return formatEventId(reply[0], reply[1]);
  }

  async publishEnd(runId: string, options: FencedWrite = {}): Promise<void> {
    const { fence } = options;
    // One more slot than the window, so the end marker never evicts the oldest retained event.
    await this.command("end", runId, () =>
      fence
        ? PUBLISH_FENCED_END.run(
            this.commands,
            [...this.keysOf(runId), this.writerKey(runId)],
            [this.queueMaxSize + 1, this.ttlSeconds, fence.workerId, newEpoch()],
          )
        : PUBLISH_END.run(this.commands, this.keysOf(runId), [
            this.queueMaxSize + 1,
            this.ttlSeconds,
            newEpoch(),
          ]),
    );
  }

  subscribe(runId: string, options: SubscribeOptions = {}): AsyncIterable<StreamItem> {
    return subscribeToStream(
      {
        runId,
        key: this.streamKey(runId),
        commands: this.commands,
        isClosed: () => this.isClosed,
        openBlockingConnection: () => this.openSubscriberConnection(),
        releaseBlockingConnection: (connection) => this.releaseSubscriberConnection(connection),
      },
      options,
    );
  }

  /** `subscribe`, pushed: each item handed over as its read returns, none pulled while paused. */
  watch(runId: string, options: SubscribeOptions, onItem: (item: WatchItem) => void): StreamWatch {
    return watchFromSubscribe((opened) => this.subscribe(runId, opened), options, onItem);
  }

  async streamExists(runId: string): Promise<boolean> {
    return (
      (await this.command("check", runId, () => this.commands.exists(this.streamKey(runId)))) === 1
    );
  }

  /**
   * Deletes the run's stream and lease after `delayMs` (an unref'd timer, so it never holds the
   * process open). A cleanup still pending at `close()` is abandoned: the TTL removes the keys.
   */
  cleanup(runId: string, options: { delayMs?: number } = {}): Promise<void> {
    const drop = (): Promise<void> =>
      this.command("clean up", runId, () => this.commands.del(...this.keysOf(runId))).then(
        () => undefined,
      );
    const delayMs = options.delayMs ?? 0;
    if (delayMs <= 0) return drop();
    return new Promise<void>((resolve, reject) => {
      const pending: PendingCleanup = {
        timer: setTimeout(() => {
          this.pendingCleanups.delete(pending);
          drop().then(resolve, reject);
        }, delayMs).unref(),
        settle: resolve,
      };
      this.pendingCleanups.add(pending);
    });
  }

  async startProducerLease(runId: string): Promise<boolean> {
    return this.command("start the producer lease of", runId, () =>
      startLease(this.leaseTarget(runId), this.instanceName),
    );
  }

  transferProducerLease(runId: string, owner: ProducerOwner): void {
    const previous = this.pendingTransfers.get(runId) ?? Promise.resolve();
    // The lease is bookkeeping for observers; a lost transfer write must not fail the run, and
    // finish (same connection, later in order) still closes the lease.
    const transfer = previous
      .then(() => transferLease(this.leaseTarget(runId), owner.name))
      .catch(() => undefined)
      .finally(() => {
        if (this.pendingTransfers.get(runId) === transfer) this.pendingTransfers.delete(runId);
      });
    this.pendingTransfers.set(runId, transfer);
  }

  async finishProducerLease(runId: string): Promise<void> {
    await this.pendingTransfers.get(runId);
    await this.command("finish the producer lease of", runId, () =>
      finishLease(this.leaseTarget(runId)),
    );
  }

  /** Who produces this run's stream, as every process sees it; undefined if no lease was started. */
  async producerLease(runId: string): Promise<RedisProducerLease | undefined> {
    await this.pendingTransfers.get(runId);
    return this.command("read the producer lease of", runId, () =>
      readLease(this.commands, this.leaseKey(runId)),
    );
  }

  /** Stops every subscriber of this bridge and closes all its connections. Streams stay in Redis. */
  /** PING on the shared connection, bounded: a Redis that does not answer soon is down. */
  async checkHealth(): Promise<StoreHealth> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<StoreHealth>((resolve) => {
      timer = setTimeout(
        () => resolve({ up: false, reason: `no answer within ${HEALTH_TIMEOUT_MS} ms` }),
        HEALTH_TIMEOUT_MS,
      );
    });
    const pinged = this.commands.ping().then(
      (): StoreHealth => ({ up: true }),
      (error: unknown): StoreHealth => ({ up: false, reason: describeError(error) }),
    );
    try {
      return await Promise.race([pinged, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  /** The run's stream key. */
  streamKey(runId: string): string {
    // The braces are a Redis Cluster hash tag: a run's stream and lease hash share one slot, so
    // the scripts that touch both stay legal on a cluster.
    return `${this.keyPrefix}{${runId}}`;
  }

  /** The run's producer-lease hash key. */
  leaseKey(runId: string): string {
    return `${this.streamKey(runId)}:producer`;
  }

  /** The worker whose fenced publishes the run's stream accepts; outlives `cleanup` (TTL). */
  writerKey(runId: string): string {
    return `${this.streamKey(runId)}:writer`;
  }

  private keysOf(runId: string): [string, string] {
    return [this.streamKey(runId), this.leaseKey(runId)];
  }

  private leaseTarget(runId: string): LeaseTarget {
    return {
      client: this.commands,
      key: this.leaseKey(runId),
      ttlSeconds: this.ttlSeconds,
      now: this.clock.now().toISOString(),
    };
  }

  private openSubscriberConnection(): Redis {
    const connection = openConnection(this.factory, "subscriber");
    this.subscriberConnections.add(connection);
    return connection;
  }

  private async shutDown(): Promise<void> {
    this.isClosed = true;
    for (const pending of this.pendingCleanups) {
      clearTimeout(pending.timer);
      pending.settle();
    }
    this.pendingCleanups.clear();
    // Disconnecting rejects each parked blocking read; its subscriber sees `closed` and ends.
    for (const connection of this.subscriberConnections) connection.disconnect();
    this.subscriberConnections.clear();
    await Promise.all(this.pendingTransfers.values());
    await closeConnection(this.commands);
  }

  private releaseSubscriberConnection(connection: Redis): void {
    this.subscriberConnections.delete(connection);
    // Immediate, not QUIT: the connection may sit in a blocking read that QUIT would wait for.
    connection.disconnect();
  }

  /** Runs one store command, turning a Redis failure into a StoreError that names the run. */
  private async command<T>(action: string, runId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isFawnError(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new StoreError(`Could not ${action} the Redis stream of run ${runId}: ${reason}`, {
        cause: error,
      });
    }
  }
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved < 1) {
    throw new ConfigError(
      `Redis stream bridge ${name} must be a positive integer, got ${resolved}.`,
    );
  }
  return resolved;
}

function ttlSeconds(value: number | undefined): number {
  const resolved = value ?? DEFAULT_STREAM_TTL_SECONDS;
  if (!Number.isSafeInteger(resolved) || resolved < 0) {
    throw new ConfigError(
      `Redis stream bridge streamTtlSeconds must be a whole number of seconds (0 = no expiry), got ${resolved}.`,
    );
  }
  return resolved;
}
