import { mkdir, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { publishFileAtomically } from "../../core/atomic-file.js";
import { type Clock, systemClock } from "../../core/clock.js";
import { errnoCode } from "../files/fs-error-mapping.js";
import { acquireLockFile } from "../lifecycle/lock-file.js";
import {
  assertValidSandboxId,
  DEFAULT_LEASE_TIMING,
  type Lease,
  type LeaseTiming,
  leaseRules,
  leaseTtlMs,
  newOwnerId,
  OwnershipBackendError,
  type RenewOutcome,
  type SandboxOwnershipStore,
} from "./ownership-store.js";

export interface FileOwnershipStoreOptions {
  /** Shared by every process (of this host, or on a shared disk), e.g. `$FAWN_HOME/sandbox-leases`. */
  dir: string;
  ownerId?: string;
  timing?: LeaseTiming;
  clock?: Clock;
}

interface StoredLease extends Lease {
  expiresAt: number;
}

/**
 * Leases as small JSON files, one per sandbox, for several `fawn serve` processes on one host
 * without Redis. Every read-modify-write runs under that lease's lock file; the lease itself is
 * published atomically (temp file, fsync, rename), so `owner` reads without the lock see a whole
 * lease. All IO is fs/promises.
 */
export class FileOwnershipStore implements SandboxOwnershipStore {
  readonly ownerId: string;
  readonly supportsCrossProcess = true;
  private readonly dir: string;
  private readonly ttlMs: number;
  private readonly clock: Clock;
  private dirReady: Promise<void> | undefined;

  constructor(options: FileOwnershipStoreOptions) {
    this.dir = options.dir;
    this.ownerId = options.ownerId ?? newOwnerId();
    this.ttlMs = leaseTtlMs(options.timing ?? DEFAULT_LEASE_TIMING);
    this.clock = options.clock ?? systemClock;
  }

  take(sandboxId: string): Promise<boolean> {
    return this.mutate(sandboxId, (current) => leaseRules.take(current, this.ownerId));
  }

  claim(sandboxId: string, options: { forDestroy?: boolean } = {}): Promise<boolean> {
    return this.mutate(sandboxId, (current) =>
      leaseRules.claim(current, this.ownerId, options.forDestroy ?? false),
    );
  }

  renew(sandboxId: string): Promise<RenewOutcome> {
    return this.mutate(sandboxId, (current) => leaseRules.renew(current, this.ownerId));
  }

  async release(sandboxId: string): Promise<void> {
    await this.mutate(sandboxId, (current) => ({
      ...leaseRules.release(current, this.ownerId),
      result: undefined,
    }));
  }

  async owner(sandboxId: string): Promise<string | null> {
    const id = assertValidSandboxId(sandboxId);
    try {
      return (await this.read(id))?.owner ?? null;
    } catch (error) {
      throw this.backendError("read", sandboxId, error);
    }
  }

  async close(): Promise<void> {}

  private async mutate<T>(
    sandboxId: string,
    decide: (current: Lease | null) => { next: Lease | null | undefined; result: T },
  ): Promise<T> {
    const id = assertValidSandboxId(sandboxId);
    try {
      this.dirReady ??= mkdir(this.dir, { recursive: true }).then(() => undefined);
      await this.dirReady;
      const lock = await acquireLockFile(join(this.dir, `${id}.lock`), { timeoutMs: 10_000 });
      try {
        const { next, result } = decide(await this.read(id));
        if (next === null) await unlink(this.leasePath(id)).catch(ignoreMissing);
        else if (next !== undefined) {
          const stored: StoredLease = {
            ...next,
            expiresAt: this.clock.now().getTime() + this.ttlMs,
          };
          await publishFileAtomically(this.leasePath(id), JSON.stringify(stored));
        }
        return result;
      } finally {
        await lock.release();
      }
    } catch (error) {
      this.dirReady = undefined;
      throw this.backendError("update", id, error);
    }
  }

  /** The live lease, or null when there is none or it has expired. */
  private async read(sandboxId: string): Promise<Lease | null> {
    let raw: string;
    try {
      raw = await readFile(this.leasePath(sandboxId), "utf8");
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return null;
      throw error;
    }
    const stored = parseLease(raw);
    if (stored === null || stored.expiresAt <= this.clock.now().getTime()) return null;
    return { state: stored.state, owner: stored.owner };
  }

  private leasePath(sandboxId: string): string {
    return join(this.dir, `${sandboxId}.json`);
  }

  private backendError(action: string, sandboxId: string, error: unknown): OwnershipBackendError {
    if (error instanceof OwnershipBackendError) return error;
    return new OwnershipBackendError(
      `Could not ${action} the ownership lease of sandbox ${sandboxId} in ${this.dir}.`,
      { cause: error },
    );
  }
}

function parseLease(raw: string): StoredLease | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return null;
    const { state, owner, expiresAt } = value as Record<string, unknown>;
    if ((state !== "own" && state !== "del") || typeof owner !== "string") return null;
    if (typeof expiresAt !== "number") return null;
    return { state, owner, expiresAt };
  } catch {
    return null;
  }
}

function ignoreMissing(error: unknown): void {
  if (errnoCode(error) !== "ENOENT") throw error;
}
