import { type Clock, systemClock } from "../../core/clock.js";
import {
  assertValidSandboxId,
  DEFAULT_LEASE_TIMING,
  type Lease,
  type LeaseTiming,
  leaseRules,
  leaseTtlMs,
  newOwnerId,
  type RenewOutcome,
  type SandboxOwnershipStore,
} from "./ownership-store.js";

/** Leases of one process. Several stores may share one table (tests model peers that way). */
export class MemoryLeaseTable {
  readonly leases = new Map<string, Lease & { expiresAt: number }>();
}

export interface MemoryOwnershipStoreOptions {
  ownerId?: string;
  timing?: LeaseTiming;
  clock?: Clock;
  table?: MemoryLeaseTable;
}

/**
 * The in-process store: the same lease rules without a server. It cannot see other processes
 * (`supportsCrossProcess` false), so it suits a single `fawn serve`.
 */
export class MemoryOwnershipStore implements SandboxOwnershipStore {
  readonly ownerId: string;
  readonly supportsCrossProcess = false;
  private readonly ttlMs: number;
  private readonly clock: Clock;
  private readonly table: MemoryLeaseTable;

  constructor(options: MemoryOwnershipStoreOptions = {}) {
    this.ownerId = options.ownerId ?? newOwnerId();
    this.ttlMs = leaseTtlMs(options.timing ?? DEFAULT_LEASE_TIMING);
    this.clock = options.clock ?? systemClock;
    this.table = options.table ?? new MemoryLeaseTable();
  }

  async take(sandboxId: string): Promise<boolean> {
    const { next, result } = leaseRules.take(this.read(sandboxId), this.ownerId);
    this.write(sandboxId, next);
    return result;
  }

  async claim(sandboxId: string, options: { forDestroy?: boolean } = {}): Promise<boolean> {
    const current = this.read(sandboxId);
    const { next, result } = leaseRules.claim(current, this.ownerId, options.forDestroy ?? false);
    this.write(sandboxId, next);
    return result;
  }

  async renew(sandboxId: string): Promise<RenewOutcome> {
    const { next, result } = leaseRules.renew(this.read(sandboxId), this.ownerId);
    this.write(sandboxId, next);
    return result;
  }

  async release(sandboxId: string): Promise<void> {
    this.write(sandboxId, leaseRules.release(this.read(sandboxId), this.ownerId).next);
  }

  async owner(sandboxId: string): Promise<string | null> {
    return this.read(sandboxId)?.owner ?? null;
  }

  async close(): Promise<void> {}

  private read(sandboxId: string): Lease | null {
    const lease = this.table.leases.get(assertValidSandboxId(sandboxId));
    if (!lease) return null;
    if (lease.expiresAt <= this.clock.now().getTime()) {
      this.table.leases.delete(sandboxId);
      return null;
    }
    return { state: lease.state, owner: lease.owner };
  }

  private write(sandboxId: string, next: Lease | null | undefined): void {
    if (next === undefined) return;
    if (next === null) this.table.leases.delete(sandboxId);
    else
      this.table.leases.set(sandboxId, {
        ...next,
        expiresAt: this.clock.now().getTime() + this.ttlMs,
      });
  }
}
