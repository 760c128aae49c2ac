import { join } from "node:path";
import { withDeadline } from "../../core/async/deadline.js";
import { KeyedMutex } from "../../core/async/keyed-mutex.js";
import { SingleFlight } from "../../core/async/single-flight.js";
import { type Clock, systemClock } from "../../core/clock.js";
import { describeError } from "../../core/errors.js";
import { assertValidId } from "../../core/ids.js";
import { type Logger, rootLogger } from "../../core/logger.js";
import type { FawnPaths, ThreadScope } from "../../core/paths.js";
import type { ThreadMountOptions } from "../files/thread-mounts.js";
import type { SandboxOwnershipStore } from "../ownership/ownership-store.js";
import type { Sandbox } from "../sandbox.js";
import {
  SandboxBeingDestroyedError,
  SandboxIdentityCollisionError,
  SandboxUnavailableError,
} from "../sandbox-errors.js";
import type { AcquireOptions, SandboxProvider, SandboxProviderKind } from "../sandbox-provider.js";
import { renewTrackedLeases } from "./lease-renewal.js";
import { acquireLockFile, type LockFileOpener } from "./lock-file.js";
import type { SandboxBackend, SandboxInstance } from "./sandbox-backend.js";
import { sandboxIdForThread } from "./sandbox-id.js";
import { identityOf, SandboxRegistry } from "./sandbox-registry.js";
import { buildSandboxSpec } from "./sandbox-spec.js";

/** How long a thread's release waits for an acquire of that thread still in flight. */
const RELEASE_WAITS_FOR_ACQUIRE_MS = 10_000;

/** The acquire algorithm as named layers, in order. */
export const ACQUIRE_LAYERS = [
  "in_process_reuse",
  "sandbox_id",
  "warm_pool",
  "discover_or_create",
] as const;
export type AcquireLayer = (typeof ACQUIRE_LAYERS)[number];

export interface AcquireLayerContext {
  scope: ThreadScope;
  /** Known from the `warm_pool` layer on. */
  sandboxId?: string;
}

export interface ManagedSandboxProviderOptions {
  backend: SandboxBackend;
  paths: FawnPaths;
  ownership: SandboxOwnershipStore;
  /** Close the ownership store at shutdown (default true: the provider made it). */
  closeOwnershipOnShutdown?: boolean;
  /** Host folder shown at `/mnt/skills` (when it exists; a thread's skills view wins). */
  skillsDir?: string | null;
  extraMounts?: ThreadMountOptions["extraMounts"];
  /** Idle sandboxes (active or warm) are destroyed after this long; 0 disables (default 600 s). */
  idleTimeoutMs?: number;
  /** Soft cap of active + warm sandboxes; warm ones are evicted first (default 3). */
  replicas?: number;
  /** How often leases are renewed in the background (the store's TTL is a multiple of it). */
  renewalIntervalMs?: number;
  /** How often the idle reaper runs (default: the idle timeout, within 1–60 s). */
  reaperIntervalMs?: number;
  /** Opens the cross-process acquire lock; injectable for tests. */
  openLockFile?: LockFileOpener;
  lockTimeoutMs?: number;
  clock?: Clock;
  logger?: Logger;
  /** Test hook called before each acquire layer; throwing stops the acquire there. */
  onAcquireLayer?: (layer: AcquireLayer, context: AcquireLayerContext) => void | Promise<void>;
  /** Start the renewal and reaper timers (default true). */
  startTimers?: boolean;
}

/**
 * One provider for every backend: per-thread acquire serialization (a single flight per thread in
 * this process, a lock file across processes), deterministic ids, a warm pool, an idle reaper, a
 * soft replicas cap and ownership leases renewed in the background. `get` only reads memory.
 */
export class ManagedSandboxProvider implements SandboxProvider {
  readonly kind: SandboxProviderKind;
  readonly usesThreadDataMounts = true;
  readonly registry = new SandboxRegistry();
  private readonly backend: SandboxBackend;
  private readonly paths: FawnPaths;
  readonly ownership: SandboxOwnershipStore;
  private readonly options: ManagedSandboxProviderOptions;
  private readonly clock: Clock;
  readonly log: Logger;
  private readonly acquires = new SingleFlight<string, string>();
  /** Serializes every lifecycle transition of one sandbox id (register, reclaim, destroy). */
  readonly idLocks = new KeyedMutex<string>();
  private readonly openLockFile: LockFileOpener;
  private readonly timers: NodeJS.Timeout[] = [];
  private renewing = false;
  private reaping = false;
  private closing: Promise<void> | undefined;

  constructor(options: ManagedSandboxProviderOptions) {
    this.options = options;
    this.backend = options.backend;
    this.kind = options.backend.kind;
    this.paths = options.paths;
    this.ownership = options.ownership;
    this.clock = options.clock ?? systemClock;
    this.log = (options.logger ?? rootLogger).child({ component: "sandbox", kind: this.kind });
    this.openLockFile = options.openLockFile ?? acquireLockFile;
    if (options.startTimers ?? true) this.startTimers();
  }

  acquire(threadId: string, userId: string, options: AcquireOptions = {}): Promise<string> {
    if (this.closing) {
      return Promise.reject(new SandboxUnavailableError("The sandbox provider is shut down."));
    }
    const scope: ThreadScope = { userId, threadId: assertValidId("thread", threadId) };
    this.paths.threadDir(scope); // validates the user id (pure)
    // Concurrent callers share one acquire; each caller's signal only stops its own wait.
    const shared = this.acquires.run(identityOf(scope), () => this.acquireInternal(scope));
    return options.signal ? abandonOnAbort(shared, options.signal) : shared;
  }

  get(sandboxId: string): Sandbox | null {
    const tracked = this.registry.active.get(sandboxId);
    if (!tracked) return null;
    tracked.lastActivity = this.clock.now().getTime();
    return tracked.instance.sandbox;
  }

  async release(sandboxId: string): Promise<void> {
    const parked = this.registry.park(sandboxId, this.clock.now().getTime());
    if (!parked) return;
    // Refresh the lease; if a peer owns it by now, forget it without stopping it. Never throws.
    try {
      const outcome = await this.ownership.renew(sandboxId);
      if (outcome === "lost" && this.registry.epochOf(sandboxId) === parked.epoch) {
        this.registry.forget(sandboxId);
      }
    } catch (error) {
      this.log.warn(
        { sandboxId, error: describeError(error) },
        "lease refresh after release failed",
      );
    }
  }

  async releaseThread(threadId: string, userId: string): Promise<void> {
    const scope: ThreadScope = { userId, threadId };
    const identity = identityOf(scope);
    // An acquire still settling (a tool call abandoned by a cancel) would otherwise register the
    // sandbox active after this release; wait for it, boundedly (a run's end must not hang on a
    // stuck container start; the idle reaper covers what is left). Its failure is its caller's.
    if (this.acquires.has(identity)) {
      const settling = this.acquires.run(identity, () => this.acquireInternal(scope));
      await withDeadline(settling, RELEASE_WAITS_FOR_ACQUIRE_MS).catch(() => undefined);
    }
    const sandboxId = this.registry.activeIdFor(scope);
    if (sandboxId !== undefined) await this.release(sandboxId);
  }

  shutdown(): Promise<void> {
    this.closing ??= (async () => {
      for (const timer of this.timers) clearInterval(timer);
      for (const sandboxId of this.registry.trackedIds()) await this.destroy(sandboxId);
      if (this.options.closeOwnershipOnShutdown ?? true) {
        await this.ownership.close().catch(() => undefined);
      }
    })();
    return this.closing;
  }

  /** Runs the acquire layers in order; each may answer with the sandbox id. */
  async acquireInternal(scope: ThreadScope, signal?: AbortSignal): Promise<string> {
    const context: AcquireLayerContext = { scope };
    await this.enterLayer("in_process_reuse", context);
    const reused = await this.reuseInProcess(scope);
    if (reused !== null) return reused;

    await this.enterLayer("sandbox_id", context);
    const sandboxId = await sandboxIdForThread(this.paths, scope);
    context.sandboxId = sandboxId;
    const trackedFor = this.registry.identityOfId(sandboxId);
    if (trackedFor !== undefined && trackedFor !== identityOf(scope)) {
      throw new SandboxIdentityCollisionError(sandboxId);
    }

    await this.enterLayer("warm_pool", context);
    const reclaimed = await this.idLocks.runExclusive(sandboxId, () =>
      this.reclaimWarm(scope, sandboxId),
    );
    if (reclaimed !== null) return reclaimed;

    await this.enterLayer("discover_or_create", context);
    return this.discoverOrCreateWithLock(scope, sandboxId, signal);
  }

  /**
   * Under the thread's cross-process lock file: look again in memory, then find a running
   * sandbox for the id (`discover`) or make one. Public so tests can drive this layer alone.
   */
  async discoverOrCreateWithLock(
    scope: ThreadScope,
    sandboxId: string,
    signal?: AbortSignal,
  ): Promise<string> {
    const threadPaths = await this.paths.ensureThreadDirs(scope);
    const lock = await this.openLockFile(join(threadPaths.threadDir, `${sandboxId}.lock`), {
      signal,
      timeoutMs: this.options.lockTimeoutMs,
    });
    try {
      return await this.idLocks.runExclusive(sandboxId, async () => {
        if (this.registry.active.has(sandboxId) && (await this.ownership.take(sandboxId))) {
          return sandboxId;
        }
        const reclaimed = await this.reclaimWarm(scope, sandboxId);
        if (reclaimed !== null) return reclaimed;
        const spec = await buildSandboxSpec(
          this.paths,
          scope,
          sandboxId,
          threadPaths,
          this.options,
        );
        const discovered = await this.backend.discover(spec, signal);
        if (discovered) {
          await this.register(scope, sandboxId, discovered);
          return sandboxId;
        }
        await this.enforceReplicas();
        const created = await this.backend.create(spec, signal);
        try {
          await this.register(scope, sandboxId, created);
        } catch (error) {
          await created.destroy().catch(() => undefined);
          throw error;
        }
        return sandboxId;
      });
    } finally {
      await lock.release();
    }
  }

  /** Publishes our lease on the acquire path: fails closed, and refuses during a peer's teardown. */
  async publishOwnership(sandboxId: string): Promise<void> {
    if (!(await this.ownership.take(sandboxId))) throw new SandboxBeingDestroyedError(sandboxId);
  }

  /**
   * Destroys a sandbox this process tracks, if it can claim it for teardown (otherwise a peer
   * owns it: it is only forgotten here). `stillReapable` is re-checked under the id's lock.
   */
  async destroy(sandboxId: string, stillReapable: () => boolean = () => true): Promise<boolean> {
    return this.idLocks.runExclusive(sandboxId, async () => {
      const entry = this.registry.active.get(sandboxId) ?? this.registry.warm.get(sandboxId);
      if (!entry || !stillReapable()) return false;
      const claimed = await this.ownership
        .claim(sandboxId, { forDestroy: true })
        .catch(() => false);
      if (!claimed) {
        this.registry.forget(sandboxId);
        return false;
      }
      this.registry.teardown.add(sandboxId);
      this.registry.forget(sandboxId);
      // Keep the teardown lease alive while a slow stop (a container) is in flight.
      const heartbeat = setInterval(() => {
        this.ownership.claim(sandboxId, { forDestroy: true }).catch(() => undefined);
      }, this.renewalIntervalMs());
      heartbeat.unref();
      try {
        await entry.instance.destroy();
      } catch (error) {
        this.log.warn({ sandboxId, error: describeError(error) }, "sandbox destroy failed");
      } finally {
        clearInterval(heartbeat);
        await this.ownership.release(sandboxId).catch(() => undefined);
        this.registry.teardown.delete(sandboxId);
      }
      return true;
    });
  }

  /** One pass of the idle reaper: active sandboxes idle too long, warm ones parked too long. */
  async reapIdle(): Promise<void> {
    const idleMs = this.options.idleTimeoutMs ?? 600_000;
    if (idleMs <= 0 || this.reaping) return;
    this.reaping = true;
    try {
      const isIdle = (sandboxId: string): boolean => {
        const now = this.clock.now().getTime();
        const active = this.registry.active.get(sandboxId);
        // A command still running counts as activity, however long ago `get` was called.
        if (active) return now - active.lastActivity >= idleMs && !active.instance.sandbox.busy;
        const warm = this.registry.warm.get(sandboxId);
        return warm !== undefined && now - warm.parkedAt >= idleMs;
      };
      for (const sandboxId of this.registry.trackedIds()) {
        if (isIdle(sandboxId)) await this.destroy(sandboxId, () => isIdle(sandboxId));
      }
    } finally {
      this.reaping = false;
    }
  }

  /** One renewal pass over every tracked lease (runs on a timer, off the request path). */
  async renewLeases(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      await renewTrackedLeases(this);
    } finally {
      this.renewing = false;
    }
  }

  private async reuseInProcess(scope: ThreadScope): Promise<string | null> {
    const sandboxId = this.registry.activeIdFor(scope);
    if (sandboxId === undefined) return null;
    return this.idLocks.runExclusive(sandboxId, async () => {
      const tracked = this.registry.active.get(sandboxId);
      if (!tracked) return null;
      if (!(await tracked.instance.isAlive().catch(() => true))) {
        this.registry.forget(sandboxId);
        await tracked.instance.destroy().catch(() => undefined);
        return null;
      }
      tracked.lastActivity = this.clock.now().getTime();
      if (await this.ownership.take(sandboxId)) return sandboxId;
      this.registry.forget(sandboxId); // a peer is tearing it down: cold-start instead
      return null;
    });
  }

  /** Warm pool → active for the same thread. Caller holds the id's lock. */
  private async reclaimWarm(scope: ThreadScope, sandboxId: string): Promise<string | null> {
    const warm = this.registry.warm.get(sandboxId);
    if (!warm || warm.identity !== identityOf(scope)) return null;
    if (!(await warm.instance.isAlive().catch(() => true))) {
      this.registry.forget(sandboxId);
      await warm.instance.destroy().catch(() => undefined);
      return null;
    }
    if (!(await this.ownership.take(sandboxId))) {
      this.registry.forget(sandboxId);
      return null;
    }
    this.registry.activate(sandboxId, warm.instance, scope, this.clock.now().getTime());
    return sandboxId;
  }

  private async register(
    scope: ThreadScope,
    sandboxId: string,
    instance: SandboxInstance,
  ): Promise<void> {
    await this.publishOwnership(sandboxId);
    this.registry.activate(sandboxId, instance, scope, this.clock.now().getTime());
  }

  /** Soft cap: evict the oldest warm sandboxes we can claim; never stop an active one. */
  private async enforceReplicas(): Promise<void> {
    const replicas = this.options.replicas ?? 3;
    if (replicas <= 0) return;
    const oldestFirst = [...this.registry.warm.values()].sort((a, b) => a.parkedAt - b.parkedAt);
    for (const warm of oldestFirst) {
      if (this.registry.size < replicas) return;
      await this.destroy(warm.sandboxId, () => this.registry.warm.has(warm.sandboxId));
    }
    if (this.registry.size >= replicas) {
      this.log.warn(
        { replicas, tracked: this.registry.size },
        "sandbox replicas cap reached with no idle sandbox to evict; creating one anyway",
      );
    }
  }

  private async enterLayer(layer: AcquireLayer, context: AcquireLayerContext): Promise<void> {
    await this.options.onAcquireLayer?.(layer, context);
  }

  private renewalIntervalMs(): number {
    return this.options.renewalIntervalMs ?? 30_000;
  }

  private startTimers(): void {
    const renewal = setInterval(() => {
      void this.renewLeases();
    }, this.renewalIntervalMs());
    renewal.unref();
    this.timers.push(renewal);
    const idleMs = this.options.idleTimeoutMs ?? 600_000;
    if (idleMs > 0) {
      const every = this.options.reaperIntervalMs ?? Math.max(1_000, Math.min(60_000, idleMs));
      const reaper = setInterval(() => {
        void this.reapIdle().catch((error: unknown) => {
          this.log.warn({ error: describeError(error) }, "idle reaper pass failed");
        });
      }, every);
      reaper.unref();
      this.timers.push(reaper);
    }
  }
}

/** Settles like `work`, or rejects with the signal's reason as soon as it aborts. */
function abandonOnAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
